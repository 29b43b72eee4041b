import type { Principal } from '../authority/core/principal.js'
import { checkGuard, type GuardOptions, guardRequest, queryUrl } from '../http/authenticate-request.js'
import { toResponse } from '../http/responses.js'

/**
 * A Next.js App Router route handler that runs only for an authenticated request, with its caller as
 * a third argument. `R` is the request type (`NextRequest` or `Request`), `C` the route's context
 * (`{ params: Promise<...> }`), both as Next.js passes them.
 *
 * @example
 * ```ts
 * import type { TokenRouteHandler } from 'patkit/next'
 * const me: TokenRouteHandler<Request, unknown> = (_request, _context, principal) =>
 *   Response.json({ username: principal.user.username })
 * ```
 */
export type TokenRouteHandler<R extends Request, C> = (
  request: R,
  context: C,
  principal: Principal,
) => Response | Promise<Response>

/**
 * Protects a Next.js App Router route handler with a personal access token: `export const GET =
 * withToken(handler, { authority, scopes })`. The handler gets the caller as its third argument,
 * typed; a refused request is answered with the `Response` `authenticateRequest` gives (GitLab's status
 * and body, a `WWW-Authenticate` challenge) and never reaches it. The body is not read. It imports
 * nothing from Node.js or Next.js, so it runs in the Node.js and the edge runtimes (`export const
 * runtime = 'edge'`) alike, given an authority whose store runs there. Options no request could
 * pass (an unknown or empty `scopes`, a bad realm) throw where it is built, when the route loads.
 *
 * @example
 * ```ts
 * // app/api/me/route.ts (the request may be typed `NextRequest` as well)
 * import { withToken } from 'patkit/next'
 *
 * export const GET = withToken(
 *   async (_request: Request, _context: unknown, principal) =>
 *     Response.json({ username: principal.user.username }),
 *   { authority, scopes: ['read_api', 'api'] },
 * )
 * ```
 */
export function withToken<R extends Request, C, P extends string = string>(
  handler: TokenRouteHandler<R, C>,
  options: GuardOptions<[request: R, context: C], P>,
): (request: R, context: C) => Promise<Response> {
  const realm = checkGuard(options)
  return async (request, context) => {
    const outcome = await guardRequest(request, queryUrl(request.url), options, realm, request, context)
    if (outcome.isErr()) return toResponse(outcome.error)
    return handler(request, context, outcome.value)
  }
}
