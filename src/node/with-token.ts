import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Result } from 'neverthrow'
import type { Principal } from '../authority/core/principal.js'
import { checkGuard, type GuardOptions, guardRequest, queryUrl } from '../http/authenticate-request.js'
import type { Reply } from '../http/responses.js'
import { headerOf, internalError, writeReply } from './node-io.js'
import type { NodeListener } from './node-listener.js'

/**
 * A `node:http` listener of a protected route: it runs only for a request whose token passed the
 * guard, and gets its {@link Principal}. What it returns is ignored, but a promise is awaited.
 *
 * @example
 * ```ts
 * import type { TokenListener } from 'patkit/node'
 * const me: TokenListener = (_req, res, principal) => res.end(principal.user.username)
 * ```
 */
export type TokenListener = (req: IncomingMessage, res: ServerResponse, principal: Principal) => unknown

/**
 * Protects a `node:http` route with a personal access token, as `authenticateRequest` does for a
 * `Request` (the same token sources, checks and refusals), without building a `Request` or a
 * `Response`: a refused request is answered with GitLab's status, body and a `WWW-Authenticate`
 * challenge, and `listener` is not called; else `listener` gets the principal. The request body is
 * never read, so the route reads it as usual. A store that throws is answered 500; what `listener`
 * throws is the application's, as in any listener. Options no request could pass (an unknown or
 * empty `scopes`, a bad realm) throw here, where the listener is built (see docs/embedding.md).
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http'
 * import { withToken } from 'patkit/node'
 *
 * const me = withToken((_req, res, principal) => {
 *   res.setHeader('content-type', 'application/json')
 *   res.end(JSON.stringify({ username: principal.user.username }))
 * }, { authority, scopes: ['read_api', 'api'] })
 * createServer((req, res) => {
 *   if (req.url === '/me') me(req, res)
 *   else res.writeHead(404).end()
 * }).listen(3000)
 * ```
 */
export function withToken<P extends string = string>(
  listener: TokenListener,
  options: GuardOptions<[req: IncomingMessage], P>,
): NodeListener {
  const realm = checkGuard(options)
  return (req, res) => {
    void guard(listener, options, realm, req, res)
  }
}

/**
 * The guard over an `IncomingMessage` (node:http's, Express's and Fastify's raw request): its headers
 * read in place, its query from `target` (the original request target: Express rewrites `req.url`
 * under a mounted router).
 */
export function guardIncoming<A extends unknown[], P extends string>(
  req: IncomingMessage,
  target: string,
  options: GuardOptions<A, P>,
  realm: string,
  ...args: A
): Promise<Result<Principal, Reply>> {
  const headers = { get: (name: string) => headerOf(req, name) }
  return guardRequest({ headers }, queryUrl(target), options, realm, ...args)
}

async function guard<P extends string>(
  listener: TokenListener,
  options: GuardOptions<[req: IncomingMessage], P>,
  realm: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  let principal: Principal
  try {
    const outcome = await guardIncoming(req, req.url ?? '/', options, realm, req)
    if (outcome.isErr()) return writeReply(res, outcome.error)
    principal = outcome.value
  } catch {
    return internalError(res)
  }
  await listener(req, res, principal)
}
