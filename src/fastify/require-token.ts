import type { FastifyPluginAsync, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify'
import type { Principal } from '../authority/principal.js'
import { checkRealm, type GuardOptions } from '../http/authenticate-request.js'
import { guardIncoming } from '../node/with-token.js'

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The caller `requireToken` authenticated (patkit/fastify). Reading it on a route without that
     * hook throws: there is no caller to give.
     */
    readonly principal: Principal
  }
}

const PRINCIPAL = Symbol('patkit.principal')

interface Holder {
  [PRINCIPAL]?: Principal
}

/**
 * The Fastify plugin that declares `request.principal` (a getter over what {@link requireToken}
 * stores): register it once, at the root, before the routes that use the hook. It is not
 * encapsulated (Fastify's `skip-override`), so every route of the application sees the decorator.
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
        const principal = (this as unknown as Holder)[PRINCIPAL]
        if (principal === undefined) {
          throw new Error(
            `patkit/fastify: no principal on ${this.method} ${this.url}; add requireToken(...) as its preHandler`,
          )
        }
        return principal
      },
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
 * reaches the handler. The body is not read. Needs {@link fastifyPatkit} registered.
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
export function requireToken(options: GuardOptions): preHandlerAsyncHookHandler {
  const realm = checkRealm(options.realm)
  return async function patkitToken(this, request: FastifyRequest, reply: FastifyReply) {
    if (!this.hasRequestDecorator('principal')) {
      throw new Error('patkit/fastify: register fastifyPatkit before using requireToken')
    }
    const outcome = await guardIncoming(request.raw, request.raw.url ?? request.url, options, realm)
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
