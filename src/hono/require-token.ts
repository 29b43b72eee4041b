import type { Context, MiddlewareHandler } from 'hono'
import type { Principal } from '../authority/core/principal.js'
import { checkGuard, type GuardOptions, guardRequest, queryUrl } from '../http/authenticate-request.js'
import { toResponse } from '../http/responses.js'

/**
 * The Hono environment {@link requireToken} adds to a route: the caller as the `principal` variable,
 * read with `c.var.principal` or `c.get('principal')`.
 *
 * @example
 * ```ts
 * import type { Hono } from 'hono'
 * import type { TokenEnv } from 'patkit/hono'
 * declare const app: Hono<TokenEnv>
 * ```
 */
export interface TokenEnv {
  readonly Variables: { readonly principal: Principal }
}

/**
 * Protects a Hono route with a personal access token: `app.get('/me', requireToken({ authority,
 * scopes }), (c) => ...)`, and the route reads the caller as `c.var.principal`, typed (Hono infers a
 * route's variables from its middleware). A refused request is answered with the `Response`
 * `authenticateRequest` gives (GitLab's status and body, a `WWW-Authenticate` challenge) and never
 * reaches the route. The body is not read. Web-standard: Node, Bun, Deno, workers. Options no
 * request could pass (an unknown or empty `scopes`, a bad realm) throw where it is built.
 *
 * @example
 * ```ts
 * import { Hono } from 'hono'
 * import { requireToken } from 'patkit/hono'
 *
 * const app = new Hono()
 * app.get('/me', requireToken({ authority, scopes: ['read_api', 'api'] }), (c) =>
 *   c.json({ username: c.var.principal.user.username }),
 * )
 * ```
 */
export function requireToken<P extends string = string>(
  options: GuardOptions<[c: Context], P>,
): MiddlewareHandler<TokenEnv> {
  const realm = checkGuard(options)
  return async (c, next) => {
    const outcome = await guardRequest(c.req.raw, queryUrl(c.req.url), options, realm, c)
    if (outcome.isErr()) return toResponse(outcome.error)
    c.set('principal', outcome.value)
    await next()
    return undefined
  }
}
