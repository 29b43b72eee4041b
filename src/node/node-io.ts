import type { IncomingMessage, ServerResponse } from 'node:http'
import { requestUrl } from '../http/request-target.js'
import type { Reply } from '../http/responses.js'

// What the node:http listeners (createNodeListener's, toNodeListener's and withToken's) share, so a
// malformed request and a throwing handler are answered with the same bytes on each.

/**
 * A request header as a `Headers` built from `req.headers` answers it: node has already joined or
 * dropped repeats, so no `Headers` object is needed to read one.
 */
export function headerOf(req: IncomingMessage, name: string): string | null {
  const value = req.headers[name.toLowerCase()]
  return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value
}

/** What either listener answers when the handler throws (a bug: expected failures are replies). */
export function internalError(res: ServerResponse): void {
  if (!res.headersSent) {
    res.statusCode = 500
    res.setHeader('content-type', 'application/json')
  }
  res.end('{"message":"500 Internal Server Error"}')
}

/**
 * Writes a reply as `toNodeListener` writes the equivalent Response: the headers sorted by name (the
 * order Headers iterates in), then content-length when there is a body.
 */
export function writeReply(res: ServerResponse, reply: Reply): void {
  // An object, not a list of pairs: node takes an object as the response's headers when none were set
  // before, where a list is set pair by pair (docs/benchmarks.md, target 3f).
  const headers: Record<string, string> = {}
  for (const key of Object.keys(reply.headers).sort()) headers[key] = reply.headers[key] ?? ''
  if (reply.body !== null) headers['content-length'] = String(Buffer.byteLength(reply.body))
  res.writeHead(reply.status, headers)
  res.end(reply.body ?? undefined)
}

/**
 * The request's URL, or undefined once the answer to a malformed request is written (a HEAD answer
 * without its body, as the handler's are). See `requestUrl` in request-target.ts for what is refused.
 */
export function urlOrRefusal(req: IncomingMessage, res: ServerResponse, method: string): URL | undefined {
  const url = requestUrl(method, req.url ?? '/', req.headers.host)
  if (url.isOk()) return url.value
  writeReply(res, method === 'HEAD' ? { ...url.error, body: null } : url.error)
  return undefined
}
