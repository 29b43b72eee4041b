import { err, ok, type Result } from 'neverthrow'
import { MALFORMED } from './malformed-strings.js'
import { error, type Reply } from './responses.js'

// Methods nginx answers itself with 405 (TRACE; CONNECT in recent releases) or Rails refuses as unknown
// (TRACK), and which a web Request cannot carry anyway.
const REFUSED_METHODS = /^(?:connect|trace|track)$/i

// RFC 3986 host (IP-literal, IPv4 or reg-name) and optional port: no userinfo, path, query, fragment
// or white space. The URL parser checks the rest (IPv6 syntax, escapes, port range).
const HOST = /^(?:\[[0-9A-Za-z:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::[0-9]*)?$/

const ABSOLUTE_FORM = /^https?:\/\//i

function parse(href: string): URL | undefined {
  try {
    return new URL(href)
  } catch {
    return undefined
  }
}

// Clients send the same few targets again and again (`GET /api/v4/personal_access_tokens/self` above
// all), and parsing one costs about as much as the rest of routing it: a parsed origin-form URL is
// remembered by target (with the host it was parsed with), in one map cleared when full, so no
// variety of targets or hosts can grow it. Requests with the same host and target share the URL
// object: the handler only reads the URLs it is given.
const REMEMBERED_URLS = 1024
const MAX_REMEMBERED_TARGET = 512
const urls = new Map<string, { readonly authority: string; readonly url: URL }>()

function originForm(authority: string, target: string): URL | undefined {
  const known = urls.get(target)
  if (known !== undefined && known.authority === authority) return known.url
  const url = parse(`http://${authority}${target}`)
  if (url === undefined || target.length > MAX_REMEMBERED_TARGET) return url
  if (urls.size >= REMEMBERED_URLS) urls.clear()
  urls.set(target, { authority, url })
  return url
}

/** A URL the handler may use: it parsed, and it carries no credentials (a web Request refuses them). */
function usable(url: URL | undefined): Result<URL, Reply> {
  return url === undefined || url.username !== '' || url.password !== '' ? err(MALFORMED) : ok(url)
}

/**
 * The absolute URL of a request as `node:http` received it (its method, request target and `Host`
 * header), or the answer GitLab behind nginx gives instead, so that no malformed request reaches the
 * handler or becomes a 500:
 *
 * - TRACE, TRACK and CONNECT: 405 `{"error":"405 Method Not Allowed"}`, on every path (nginx answers
 *   TRACE itself, with no `Allow`).
 * - A `Host` that is not `host[:port]` (white space, userinfo, an unclosed `[`, a port above 65535, an
 *   empty value): 400, which nginx answers and RFC 9112 requires.
 * - A target that is neither a path (origin-form) nor an `http`/`https` URL (absolute-form), such as
 *   `OPTIONS *`: 400, as nginx answers.
 * - An absolute-form target is accepted, as nginx accepts it, and its own host wins over `Host`
 *   (RFC 9112, section 3.2.2); one with credentials or a bad host is 400.
 *
 * Every 400 is GitLab's malformed-request answer (`text/plain` `Bad Request`) rather than nginx's HTML
 * page. Without a `Host` (HTTP/1.0; node refuses an HTTP/1.1 request without one), the host is
 * `localhost`.
 */
export function requestUrl(method: string, target: string, host: string | undefined): Result<URL, Reply> {
  if (REFUSED_METHODS.test(method)) return err(error(405, '405 Method Not Allowed'))
  const authority = host ?? 'localhost'
  if (!HOST.test(authority)) return err(MALFORMED)
  // The pattern keeps the authority whole (no `/`, `?`, `#`, `@`), so parsing it with the path checks
  // it, and the URL has no credentials.
  if (target.startsWith('/')) {
    const url = originForm(authority, target)
    return url === undefined ? err(MALFORMED) : ok(url)
  }
  if (!ABSOLUTE_FORM.test(target)) return err(MALFORMED)
  // The target's host wins, but a bad Host is refused all the same, as nginx refuses it.
  return parse(`http://${authority}/`) === undefined ? err(MALFORMED) : usable(parse(target))
}
