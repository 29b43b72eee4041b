import type { FastifyPluginAsync, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify'
import type { Principal } from '../authority/core/principal.js'
import { checkGuard, type GuardOptions } from '../http/authenticate-request.js'
import { MissingPrincipalError } from '../http/missing-principal.js'
import { guardIncoming } from '../node/with-token.js'

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The caller `requireToken` authenticated (patkit/fastify). Typed on every route, as Fastify's
     * decorators are; reading it on a route without that hook throws `MissingPrincipalError`, and
     * the client gets a plain 500.
     */
    readonly principal: Principal
  }
}

const PRINCIPAL = Symbol('patkit.principal')
// Set when `request.principal` was read on a route without the guard, so the 500 that follows is
// answered without the error's message (Fastify would send it to the client).
const MISSING = Symbol('patkit.missingPrincipal')

interface Holder {
  [PRINCIPAL]?: Principal
  [MISSING]?: true
}

const PLAIN_500 = '{"message":"500 Internal Server Error"}'

/**
 * The Fastify plugin that declares `request.principal` (a getter over what {@link requireToken}
 * stores): register it once, at the root, before the routes that use the hook. It is not
 * encapsulated (Fastify's `skip-override`), so every route of the application sees the decorator.
 * Reading `request.principal` on a route without `requireToken` throws {@link MissingPrincipalError}
 * (the application's error handler and logger get its message: the method and route that lack the
 * guard), and the client gets GitLab's plain `{"message":"500 Internal Server Error"}`, not the
 * message, which Fastify's default error handler would send.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify'
 * import { fastifyPatkit } from 'patkit/fastify'
 *
 * const app = Fastify()
 * await app.register(fastifyPatkit)
 * ```
 */
export const fastifyPatkit: FastifyPluginAsync = Object.assign(
  async (app: Parameters<FastifyPluginAsync>[0]) => {
    app.decorateRequest('principal', {
      getter(this: FastifyRequest): Principal {
        const holder = this as unknown as Holder
        const principal = holder[PRINCIPAL]
        if (principal === undefined) {
          holder[MISSING] = true
          // The route's pattern, not the URL: a query may carry what a log must not keep.
          throw new MissingPrincipalError(
            `patkit/fastify: request.principal read on ${this.method} ${this.routeOptions.url ?? '(no route)'}, a route without requireToken(...) as its preHandler`,
          )
        }
        return principal
      },
    })
    app.addHook('onSend', (request, reply, payload, done) => {
      // Only the 500 that reading a missing principal led to: a handler that caught the error and
      // answered otherwise keeps its answer.
      if ((request as unknown as Holder)[MISSING] !== true || reply.statusCode !== 500) {
        done(null, payload)
        return
      }
      reply.header('content-type', 'application/json')
      done(null, PLAIN_500)
    })
  },
  { [Symbol.for('skip-override')]: true, [Symbol.for('fastify.display-name')]: 'patkit' },
)

/**
 * Protects a Fastify 5 route with a personal access token: `{ preHandler: requireToken({ authority,
 * scopes }) }` in the route's options, and the handler reads the caller as `request.principal`, typed.
 * The same token sources, checks and refusals as `authenticateRequest` (GitLab's status and body, a
 * `WWW-Authenticate` challenge), read from the raw request without building a `Request`; a refused
 * request is answered through `reply` (so `onSend` hooks and plugins such as CORS still run) and never
 * reaches the handler. The body is not read. Needs {@link fastifyPatkit} registered. Throws where it
 * is built for options no request could pass (an unknown or empty `scopes`, a bad realm; see
 * docs/embedding.md).
 *
 * @example
 * ```ts
 * import Fastify from 'fastify'
 * import { fastifyPatkit, requireToken } from 'patkit/fastify'
 *
 * const app = Fastify()
 * await app.register(fastifyPatkit)
 * app.get('/me', { preHandler: requireToken({ authority, scopes: ['read_api', 'api'] }) }, async (request) => ({
 *   username: request.principal.user.username,
 * }))
 * ```
 */
export function requireToken<P extends string = string>(
  options: GuardOptions<[request: FastifyRequest], P>,
): preHandlerAsyncHookHandler {
  const realm = checkGuard(options)
  return async function patkitToken(this, request: FastifyRequest, reply: FastifyReply) {
    if (!this.hasRequestDecorator('principal')) {
      throw new Error('patkit/fastify: register fastifyPatkit before using requireToken')
    }
    const outcome = await guardIncoming(request.raw, request.raw.url ?? request.url, options, realm, request)
    if (outcome.isErr()) {
      const { status, headers, body } = outcome.error
      // Bytes, not a string: for a string Fastify would add a charset to GitLab's content type.
      return reply
        .code(status)
        .headers(headers)
        .send(body === null ? null : Buffer.from(body))
    }
    ;(request as unknown as Holder)[PRINCIPAL] = outcome.value
    return undefined
  }
}
