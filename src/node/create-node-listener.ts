import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Authority } from '../authority/create-authority.js'
import { type ClientIpResolver, resolveClientIp } from '../http/client-ip.js'
import type { HandlerOptions } from '../http/create-handler.js'
import { type HandlerCore, handlerCore } from '../http/handler-core.js'
import type { IncomingRequest } from '../http/incoming.js'
import { headerOf, internalError, urlOrRefusal, writeReply } from './node-io.js'
import type { NodeListener } from './node-listener.js'
import { webBody } from './web-body.js'

/**
 * Serves GitLab's personal access token API over an authority on `node:http`:
 * `http.createServer(createNodeListener(authority))`. It takes `createHandler`'s options and
 * answers the very bytes `toNodeListener(createHandler(authority, options))` answers (a test compares
 * them for every kind of answer), without building a `Request`, `Headers`, `AbortSignal`, `Response`
 * or body stream: the request is read through a light view of the `IncomingMessage` and the answer
 * written from its text. Those objects cost more than the whole API call (docs/benchmarks.md,
 * target 3), so this is the listener to mount on node:http, Express or a hijacked Fastify reply.
 *
 * A malformed request never reaches the API and is never a 500: an invalid `Host`, `OPTIONS *` or any
 * target neither a path nor an http(s) URL is 400, TRACE, TRACK and CONNECT 405, as GitLab behind
 * nginx answers; an absolute-form target is served with its own host.
 *
 * @throws {TypeError} for an authority with `userIdType: 'string'`, as `createHandler`.
 * @example
 * ```ts
 * import { createServer } from 'node:http'
 * import { createAuthority } from 'patkit'
 * import { createNodeListener } from 'patkit/node'
 * import { memoryStore } from 'patkit/memory'
 *
 * const authority = createAuthority({ store: memoryStore(), pepper: 'dev' })
 * createServer(createNodeListener(authority, { basePath: '/api/v4' })).listen(3000)
 * ```
 */
export function createNodeListener(authority: Authority, options: HandlerOptions = {}): NodeListener {
  const core = handlerCore(authority, options)
  return (req, res) => {
    respond(core, req, res, options.clientIp)
  }
}

/**
 * The request as the core reads it: a class rather than an object of closures, so a request costs one
 * small allocation. The body stream is made on first read, and only for methods that carry one.
 */
class NodeRequest implements IncomingRequest {
  readonly method: string
  readonly url: string
  readonly parsedUrl: URL
  readonly headers: { get(name: string): string | null }
  readonly clientIp: string | null
  readonly #req: IncomingMessage
  #body: ReadableStream<Uint8Array> | null | undefined

  constructor(
    req: IncomingMessage,
    method: string,
    url: string,
    parsedUrl: URL,
    clientIp: ClientIpResolver | undefined,
  ) {
    this.#req = req
    this.method = method
    this.url = url
    this.parsedUrl = parsedUrl
    // The request answers `headers.get` itself, so no Headers object is built.
    this.headers = this
    this.clientIp = resolveClientIp(clientIp, {
      headers: this,
      socketAddress: req.socket?.remoteAddress ?? null,
    })
  }

  get(name: string): string | null {
    return headerOf(this.#req, name)
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.#body === undefined) {
      this.#body = this.method === 'GET' || this.method === 'HEAD' ? null : webBody(this.#req)
    }
    return this.#body
  }
}

// An answer the core knows at once (GET /self on a store that holds the token in memory) is written
// in the same turn as the request arrived (docs/benchmarks.md, target 3).
function respond(
  core: HandlerCore,
  req: IncomingMessage,
  res: ServerResponse,
  clientIp: ClientIpResolver | undefined,
): void {
  try {
    const method = req.method ?? 'GET'
    const url = urlOrRefusal(req, res, method)
    if (url === undefined) return
    const reply = core(new NodeRequest(req, method, url.href, url, clientIp))
    if (reply instanceof Promise) {
      reply.then(
        (answer) => writeReply(res, answer),
        () => internalError(res),
      )
    } else writeReply(res, reply)
  } catch {
    internalError(res)
  }
}
