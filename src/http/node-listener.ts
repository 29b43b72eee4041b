import type { IncomingMessage, ServerResponse } from 'node:http'
import { Readable } from 'node:stream'
import type { Handler } from './create-handler.js'
import { coreOf, type HandlerCore } from './handler-core.js'
import type { IncomingRequest } from './incoming.js'
import { requestUrl } from './request-target.js'
import type { Reply } from './responses.js'

/**
 * Adapts a web-standard handler to `node:http`: `http.createServer(toNodeListener(handler))`.
 * Works for Express and Fastify's raw request/response too.
 *
 * A handler made by `createHandler` is served directly: the request is read through a light view of
 * the `IncomingMessage` and the answer written from its text, so no `Request`, `Headers`,
 * `AbortSignal`, `Response` or body stream is built (that costs more than the whole API call; see
 * docs/benchmarks.md, target 3). The bytes on the wire are those the general path writes. Any other
 * handler goes through a real `Request` and `Response`.
 *
 * On both paths a malformed request never reaches the handler and is never a 500: an invalid `Host`,
 * `OPTIONS *` or any target neither a path nor an http(s) URL is 400, TRACE, TRACK and CONNECT 405,
 * as GitLab behind nginx answers; an absolute-form target is served with its own host (see
 * `requestUrl` in request-target.ts).
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http'
 * import { createHandler, toNodeListener } from 'patkit/http'
 * createServer(toNodeListener(createHandler(authority))).listen(3000)
 * ```
 */
export function toNodeListener(handler: Handler): (req: IncomingMessage, res: ServerResponse) => void {
  const core = coreOf(handler)
  if (core !== undefined) {
    return (req, res) => {
      void respondDirectly(core, req, res)
    }
  }
  return (req, res) => {
    void respond(handler, req, res)
  }
}

// What either path answers when the handler throws (a bug: expected failures are replies).
function internalError(res: ServerResponse): void {
  if (!res.headersSent) {
    res.statusCode = 500
    res.setHeader('content-type', 'application/json')
  }
  res.end('{"message":"500 Internal Server Error"}')
}

/**
 * The request's URL, or undefined once the answer to a malformed request is written (a HEAD answer
 * without its body, as the handler's are).
 */
function urlOrRefusal(req: IncomingMessage, res: ServerResponse, method: string): URL | undefined {
  const url = requestUrl(method, req.url ?? '/', req.headers.host)
  if (url.isOk()) return url.value
  write(res, method === 'HEAD' ? { ...url.error, body: null } : url.error)
  return undefined
}

async function respond(handler: Handler, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const method = req.method ?? 'GET'
    const url = urlOrRefusal(req, res, method)
    if (url === undefined) return
    const headers = new Headers()
    for (const [key, value] of Object.entries(req.headers)) {
      if (value === undefined) continue
      for (const v of Array.isArray(value) ? value : [value]) headers.append(key, v)
    }
    const hasBody = method !== 'GET' && method !== 'HEAD'
    const request = new Request(url, {
      method,
      headers,
      ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
    } as RequestInit)
    const response = await handler(request)
    res.statusCode = response.status
    response.headers.forEach((value, key) => {
      res.setHeader(key, value)
    })
    const payload = response.body === null ? null : Buffer.from(await response.arrayBuffer())
    if (payload !== null) res.setHeader('content-length', payload.byteLength)
    res.end(payload ?? undefined)
  } catch {
    internalError(res)
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
  readonly #req: IncomingMessage
  #body: ReadableStream<Uint8Array> | null | undefined

  constructor(req: IncomingMessage, method: string, url: string, parsedUrl: URL) {
    this.#req = req
    this.method = method
    this.url = url
    this.parsedUrl = parsedUrl
    // The request answers `headers.get` itself, so no Headers object is built.
    this.headers = this
  }

  /** What a Headers built from req.headers answers: node has already joined or dropped repeats. */
  get(name: string): string | null {
    const value = this.#req.headers[name.toLowerCase()]
    return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.#body === undefined) {
      this.#body =
        this.method === 'GET' || this.method === 'HEAD'
          ? null
          : (Readable.toWeb(this.#req) as ReadableStream<Uint8Array>)
    }
    return this.#body
  }
}

/**
 * Writes a reply as the general path writes the equivalent Response: the headers sorted by name (the
 * order Headers iterates in), then content-length when there is a body.
 */
function write(res: ServerResponse, reply: Reply): void {
  const headers: string[] = []
  for (const key of Object.keys(reply.headers).sort()) headers.push(key, reply.headers[key] ?? '')
  if (reply.body !== null) headers.push('content-length', String(Buffer.byteLength(reply.body)))
  res.writeHead(reply.status, headers)
  res.end(reply.body ?? undefined)
}

async function respondDirectly(core: HandlerCore, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const method = req.method ?? 'GET'
    const url = urlOrRefusal(req, res, method)
    if (url === undefined) return
    write(res, await core(new NodeRequest(req, method, url.href, url)))
  } catch {
    internalError(res)
  }
}
