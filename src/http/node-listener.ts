import type { IncomingMessage, ServerResponse } from 'node:http'
import { Readable } from 'node:stream'
import type { Handler } from './create-handler.js'

/**
 * Adapts a web-standard handler to `node:http`: `http.createServer(toNodeListener(handler))`.
 * Works for Express and Fastify's raw request/response too.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http'
 * import { createHandler, toNodeListener } from 'patkit/http'
 * createServer(toNodeListener(createHandler(authority))).listen(3000)
 * ```
 */
export function toNodeListener(handler: Handler): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void respond(handler, req, res)
  }
}

async function respond(handler: Handler, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const host = req.headers.host ?? 'localhost'
    const headers = new Headers()
    for (const [key, value] of Object.entries(req.headers)) {
      if (value === undefined) continue
      for (const v of Array.isArray(value) ? value : [value]) headers.append(key, v)
    }
    const method = req.method ?? 'GET'
    const hasBody = method !== 'GET' && method !== 'HEAD'
    const request = new Request(`http://${host}${req.url ?? '/'}`, {
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
    if (!res.headersSent) {
      res.statusCode = 500
      res.setHeader('content-type', 'application/json')
    }
    res.end('{"message":"500 Internal Server Error"}')
  }
}
