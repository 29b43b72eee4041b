import { fromBase64 } from '../domain/bytes.js'
import { decodeComponent, type Params, parseForm } from './form-params.js'
import type { Reply } from './responses.js'

/**
 * GitLab's answer to a request carrying a null byte or invalid UTF-8, byte for byte: its Rack
 * middleware `Gitlab::Middleware::HandleMalformedStrings` answers
 * `[400, { 'Content-Type' => 'text/plain' }, ['Bad Request']]` before Rails or Grape see the request.
 * patkit answers it before any store is touched: PostgreSQL refuses a NUL in text, and SQLite and
 * MariaDB would store one silently.
 */
export const MALFORMED: Reply = Object.freeze({
  status: 400,
  headers: Object.freeze({ 'content-type': 'text/plain' }),
  body: 'Bad Request',
})

/**
 * Whether GitLab's middleware refuses a URL, given its path and query (`url.pathname`, `url.search`):
 * a path that does not decode, or decodes to a null byte or invalid UTF-8; a query with a bad escape
 * anywhere, or a value that decodes to a null byte or invalid UTF-8 (Rails checks the encoding of
 * values, not of names). A URL holds no raw NUL or non-ASCII byte (the URL parser escapes them), so
 * a URL without `%` is never malformed and costs one scan.
 */
export function isMalformedUrl(pathname: string, search: string): boolean {
  if (pathname.includes('%')) {
    const path = decodeComponent(pathname)
    if (path === undefined || path.includes('\0')) return true
  }
  if (!search.includes('%')) return false
  const query = parseForm(search.slice(1))
  return query === undefined || hasNullByte(query)
}

/**
 * Whether a parameter value holds a null byte, looking into arrays and objects as GitLab's middleware
 * does: two levels deep, no further (it guards against hostile nesting; anything deeper is a wrong
 * type for every patkit parameter anyway, and is refused as such).
 */
export function hasNullByte(params: Params): boolean {
  return Object.values(params).some((value) => valueHasNullByte(value, 0))
}

function valueHasNullByte(value: unknown, depth: number): boolean {
  if (depth > 2) return false
  if (typeof value === 'string') return value.includes('\0')
  if (Array.isArray(value)) return value.some((item) => valueHasNullByte(item, depth + 1))
  if (typeof value === 'object' && value !== null) {
    return Object.values(value).some((item) => valueHasNullByte(item, depth + 1))
  }
  return false
}

/**
 * Whether the `Authorization` header is one GitLab's middleware refuses: Basic credentials that
 * decode to a null byte, or any other value holding one (which no HTTP parser lets through, but a
 * hand-made request view could).
 */
export function isMalformedAuthorization(authorization: string | null): boolean {
  if (authorization === null || authorization === '') return false
  const space = authorization.indexOf(' ')
  const scheme = space === -1 ? authorization : authorization.slice(0, space)
  if (scheme.toLowerCase() !== 'basic') return authorization.includes('\0')
  // Ruby's Base64.decode64 skips what is not base64, and so does fromBase64 (as Node's Buffer does).
  const credentials = fromBase64(space === -1 ? '' : authorization.slice(space + 1))
  return credentials.includes(0)
}
