import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Handler } from '../http/create-handler.js'
import { internalError, urlOrRefusal } from './node-io.js'
import { webBody } from './web-body.js'

/**
 * A `node:http` request listener, as `http.createServer` takes one (Express and Fastify's raw request
 * and response fit it too).
 *
 * @example
 * ```ts
 * import type { NodeListener } from 'patkit/node'
 * const listener: NodeListener = (_req, res) => res.end('ok')
 * ```
 */
export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void

/**
 * Adapts any web-standard handler to `node:http`, as hono's node adapter does: each request becomes a
 * `Request` (its body streamed), and the `Response` is written back. For patkit's own API prefer
 * {@link createNodeListener}, which answers the same bytes without building either (see
 * docs/benchmarks.md, target 3); this is for handlers of your own, or one wrapped in middleware.
 *
 * A malformed request never reaches the handler and is never a 500: an invalid `Host`, `OPTIONS *` or
 * any target neither a path nor an http(s) URL is 400, TRACE, TRACK and CONNECT 405, as GitLab behind
 * nginx answers; an absolute-form target is served with its own host (see `requestUrl` in
 * request-target.ts). A handler that throws is answered 500 `{"message":"500 Internal Server Error"}`.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http'
 * import { createHandler } from 'patkit/http'
 * import { toNodeListener } from 'patkit/node'
 *
 * const api = createHandler(authority)
 * // Your own middleware around the handler: toNodeListener serves any (Request) => Promise<Response>.
 * const logged = async (request: Request) => {
 *   const response = await api(request)
 *   console.log(request.method, new URL(request.url).pathname, response.status)
 *   return response
 * }
 * createServer(toNodeListener(logged)).listen(3000)
 * ```
 */
export function toNodeListener(handler: Handler): NodeListener {
  return (req, res) => {
    void respond(handler, req, res)
  }
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
      ...(hasBody ? { body: webBody(req), duplex: 'half' } : {}),
    } as RequestInit)
    const response = await handler(request)
    res.statusCode = response.status
    response.headers.forEach((value, key) => {
      res.setHeader(key, value)
    })
    if (response.body !== null && isEventStream(response)) {
      await streamBody(response.body, res)
      return
    }
    const payload = response.body === null ? null : Buffer.from(await response.arrayBuffer())
    if (payload !== null) res.setHeader('content-length', payload.byteLength)
    res.end(payload ?? undefined)
  } catch {
    internalError(res)
  }
}

// Server-sent events are written chunk by chunk as they come; every other body whole, with its length.
function isEventStream(response: Response): boolean {
  return response.headers.get('content-type')?.startsWith('text/event-stream') === true
}

async function streamBody(body: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
  const reader = body.getReader()
  // The client went away (or the server closed the connection): the stream's cancel runs.
  res.once('close', () => {
    reader.cancel().catch(() => {})
  })
  res.flushHeaders()
  for (;;) {
    const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }))
    if (chunk.done) break
    res.write(chunk.value)
  }
  res.end()
}
