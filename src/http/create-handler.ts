import type { Authority } from '../authority/create-authority.js'
import type { PatkitError } from '../domain/errors.js'
import { type ClientIpResolver, resolveClientIp } from './client-ip.js'
import { handlerCore } from './handler-core.js'
import type { HookTester } from './hook-test-routes.js'
import type { IncomingRequest } from './incoming.js'
import { toResponse } from './responses.js'

/**
 * Options of {@link createHandler}.
 *
 * @example
 * ```ts
 * import type { HandlerOptions } from 'patkit/http'
 * const options: HandlerOptions = { basePath: '/api/v4', publicUrl: 'https://gitlab.example.com' }
 * ```
 */
export interface HandlerOptions {
  /** Where the API is mounted; defaults to `/api/v4`. */
  readonly basePath?: string
  /** The origin (and optional path prefix) clients see, for absolute `Link` URLs; defaults to the request's. */
  readonly publicUrl?: string
  /** The largest request body read, in bytes; defaults to 64 KiB. Larger bodies get 413. */
  readonly bodyLimit?: number
  /**
   * The client's address, recorded in a token's `last_used_ips`. Default: the TCP peer's address under
   * `createNodeListener`, none under `createHandler` (a web `Request` has no socket). Headers such as
   * `X-Forwarded-For` are never read unless this says so: trust them only from your own proxy.
   */
  readonly clientIp?: ClientIpResolver
  /**
   * Called with the typed error of every request the API refuses with one (an unknown, expired or
   * revoked token, a missing scope, a blocked owner, a route of a later release as
   * `feature_unavailable`, ...), as the answer is made; a throw from it is ignored. The fake's journal
   * records it as the refusal's reason. Never given a secret.
   */
  readonly onRefusal?: (refusal: PatkitError) => void
  /**
   * Sends a hook's test payload for `POST /{projects,groups}/:id/hooks/:hook_id/test/:trigger` (the
   * fake's webhook sender); without it that route answers `404 Not found`.
   */
  readonly hookTester?: HookTester
}

/**
 * A web-standard request handler.
 *
 * @example
 * ```ts
 * import type { Handler } from 'patkit/http'
 * const handler: Handler = async () => new Response(null, { status: 204 })
 * ```
 */
export type Handler = (request: Request) => Promise<Response>

/**
 * Serves GitLab's personal access token API over an authority, as a `(Request) => Promise<Response>`
 * with no framework dependency. Status codes and bodies are GitLab's, byte for byte. On node:http,
 * `createNodeListener(authority, options)` from `patkit/node` serves the same API without building a
 * `Request` and a `Response` per call; its `toNodeListener(handler)` adapts this handler (or any
 * other) through them.
 *
 * @throws {TypeError} for an authority with `userIdType: 'string'`: GitLab's API has integer user
 * ids, so its emulation refuses to start rather than answer clients with ids they cannot read.
 * @example
 * ```ts
 * import { createAuthority } from 'patkit'
 * import { memoryStore } from 'patkit/memory'
 * import { createHandler } from 'patkit/http'
 *
 * const handler = createHandler(createAuthority({ store: memoryStore(), pepper: 'dev' }))
 * const response = await handler(new Request('http://localhost/api/v4/personal_access_tokens/self', {
 *   headers: { 'PRIVATE-TOKEN': 'glpat-...' },
 * }))
 * ```
 */
export function createHandler(authority: Authority, options: HandlerOptions = {}): Handler {
  const core = handlerCore(authority, options)
  const { clientIp } = options
  if (clientIp === undefined) return async (request) => toResponse(await core(request))
  return async (request) => {
    const ip = resolveClientIp(clientIp, { headers: request.headers, socketAddress: null })
    const view: IncomingRequest = {
      method: request.method,
      url: request.url,
      headers: request.headers,
      clientIp: ip,
      get body() {
        return request.body
      },
    }
    return toResponse(await core(view))
  }
}
