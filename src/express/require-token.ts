import type { IncomingMessage } from 'node:http'
import type { NextFunction, Request, Response } from 'express'
import type { Principal } from '../authority/core/principal.js'
import { checkGuard, type GuardOptions } from '../http/authenticate-request.js'
import { MissingPrincipalError } from '../http/missing-principal.js'
import { writeReply } from '../node/node-io.js'
import { guardIncoming } from '../node/with-token.js'

/**
 * What {@link requireToken} puts in `res.locals`: the caller of a protected route.
 *
 * @example
 * ```ts
 * import type { TokenLocals } from 'patkit/express'
 * declare const locals: TokenLocals
 * locals.principal.user.username
 * ```
 */
export interface TokenLocals {
  readonly principal: Principal
}

// What requireToken authenticated, by response object: principalOf reads it here rather than from
// `res.locals`, where another middleware may have put a `principal` of its own.
const principals = new WeakMap<object, Principal>()

/**
 * The middleware {@link requireToken} returns: an Express handler whose `res.locals` is
 * {@link TokenLocals}. Express infers a route's locals from its handlers, so the handlers after it see
 * `res.locals.principal` typed; the request is typed as little as it reads (an `IncomingMessage` with
 * Express's `originalUrl`), so the route's own parameters, body and query types stay the route's.
 *
 * @example
 * ```ts
 * import { requireToken, type TokenMiddleware } from 'patkit/express'
 * const readers: TokenMiddleware = requireToken({ authority, scopes: ['read_api', 'api'] })
 * ```
 */
export type TokenMiddleware = (
  req: IncomingMessage & { readonly originalUrl: string },
  res: Response<unknown, TokenLocals>,
  next: NextFunction,
) => Promise<void>

/**
 * Protects an Express 5 route with a personal access token: `app.get('/me', requireToken({
 * authority, scopes }), (req, res) => ...)`, and the route reads the caller as `res.locals.principal`,
 * typed. The same token sources, checks and refusals as `authenticateRequest` (GitLab's status and
 * body, a `WWW-Authenticate` challenge), read from the `IncomingMessage` without building a `Request`;
 * a refused request never reaches the route. The body is not read, so a body parser may run before or
 * after it. Behind `app.use(requireToken(...))` or `router.use(...)`, or in a handler defined apart
 * from its route, Express types `res.locals` as `any`: read the caller with {@link principalOf}.
 * Throws where it is built for options no request could pass (an unknown or empty `scopes`, a bad
 * realm; see docs/embedding.md).
 *
 * @example
 * ```ts
 * import express from 'express'
 * import { requireToken } from 'patkit/express'
 *
 * const app = express()
 * app.get('/me', requireToken({ authority, scopes: ['read_api', 'api'] }), (_req, res) => {
 *   res.json({ username: res.locals.principal.user.username })
 * })
 * ```
 */
export function requireToken<P extends string = string>(
  options: GuardOptions<[req: Request], P>,
): TokenMiddleware {
  const realm = checkGuard(options)
  return async (req, res, next) => {
    // Express calls a middleware with its full Request; the type above only reads less of it.
    const outcome = await guardIncoming(req, req.originalUrl, options, realm, req as Request)
    // Written as node:http's guard writes it: `res.send` would add a charset to GitLab's content type.
    if (outcome.isErr()) return writeReply(res, outcome.error)
    // `locals` is typed readonly for the routes; this is the one place that writes it.
    const locals: { principal: Principal } = res.locals
    locals.principal = outcome.value
    principals.set(res, outcome.value)
    next()
  }
}

/**
 * The caller {@link requireToken} authenticated, typed, for a handler whose `res.locals` Express
 * cannot type: one written apart from its route, or one after `app.use(requireToken(...))` or
 * `router.use(requireToken(...))` (Express types a route's locals from that route's own handlers
 * only, so there `res.locals.principal` is `any`). It returns what the guard stored for this
 * response, never another middleware's `res.locals.principal`. Throws {@link MissingPrincipalError}
 * if no `requireToken` ran before it: the route lacks its guard, a programming error, answered 500.
 *
 * @example
 * ```ts
 * import express from 'express'
 * import { principalOf, requireToken } from 'patkit/express'
 *
 * const router = express.Router()
 * router.use(requireToken({ authority, scopes: ['read_api', 'api'] }))
 * router.get('/me', (_req, res) => {
 *   res.json({ username: principalOf(res).user.username })
 * })
 * ```
 */
export function principalOf(res: Response): Principal {
  const principal = principals.get(res)
  if (principal === undefined) {
    throw new MissingPrincipalError(
      'patkit/express: principalOf(res) found no caller: put requireToken(...) before this handler',
    )
  }
  return principal
}
