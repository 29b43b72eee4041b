import type { IncomingMessage } from 'node:http'
import type { NextFunction, Response } from 'express'
import type { Principal } from '../authority/principal.js'
import { checkRealm, type GuardOptions } from '../http/authenticate-request.js'
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
 * after it. A handler defined apart from its route reads the caller with {@link principalOf}.
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
export function requireToken(options: GuardOptions): TokenMiddleware {
  const realm = checkRealm(options.realm)
  return async (req, res, next) => {
    const outcome = await guardIncoming(req, req.originalUrl, options, realm)
    // Written as node:http's guard writes it: `res.send` would add a charset to GitLab's content type.
    if (outcome.isErr()) return writeReply(res, outcome.error)
    // `locals` is typed readonly for the routes; this is the one place that writes it.
    const locals: { principal: Principal } = res.locals
    locals.principal = outcome.value
    next()
  }
}

/**
 * The caller {@link requireToken} authenticated, for a handler written apart from its route (whose
 * `res.locals` Express cannot type). Throws if no `requireToken` ran before it: a programming error.
 *
 * @example
 * ```ts
 * import type { Request, Response } from 'express'
 * import { principalOf } from 'patkit/express'
 *
 * export function me(_req: Request, res: Response): void {
 *   res.json({ username: principalOf(res).user.username })
 * }
 * ```
 */
export function principalOf(res: Response): Principal {
  const principal: unknown = res.locals['principal']
  if (principal === undefined) {
    throw new Error('patkit/express: no principal in res.locals; put requireToken(...) before this handler')
  }
  return principal as Principal
}
