import { createHash, timingSafeEqual } from 'node:crypto'

// Who may drive the control API. Any web page the user visits can send requests to a server on
// localhost: "simple" cross-origin requests (a text/plain or form POST) reach it without a CORS
// preflight, and a DNS-rebinding page reaches it under its own host name and reads the answers. So the
// control API answers only requests addressed to a loopback host (or one the operator allowed), never
// one a page of another origin sent, takes bodies only as JSON (which no simple request can send), and
// checks the control token, when one is set, in constant time.

/** What the guard refused and why: a status and a sentence for the caller. */
interface ControlRefusal {
  readonly status: 401 | 403 | 415
  readonly message: string
}

/** What the guard lets through; the listen host and the public URL's host are among `allowedHosts`. */
interface ControlGuardOptions {
  readonly controlToken?: string | undefined
  /** Host names (or IP addresses) beside the loopback ones; `*` allows every host. */
  readonly allowedHosts?: readonly string[] | undefined
}

/** The 415 answer's sentence. */
export const JSON_ONLY = 'the control API takes JSON bodies only: send Content-Type: application/json'

const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '[::]'])

/**
 * The host name of a `Host` value or a bare host (`localhost:3000`, `[::1]`, `::1`, `Example.COM.`),
 * lower case, IPv4 and IPv6 literals in their canonical form, without the port or a trailing dot; null
 * when it is no host.
 */
export function hostNameOf(value: string): string | null {
  const host =
    value.includes(':') && !value.includes('[') && value.indexOf(':') !== value.lastIndexOf(':')
      ? `[${value}]`
      : value
  let url: URL
  try {
    url = new URL(`http://${host}/`)
  } catch {
    return null
  }
  if (
    url.username !== '' ||
    url.password !== '' ||
    url.pathname !== '/' ||
    url.search !== '' ||
    url.hash !== ''
  )
    return null
  if (url.hostname === '') return null
  return url.hostname.endsWith('.') ? url.hostname.slice(0, -1) : url.hostname
}

/** Whether a host name (as {@link hostNameOf} gives it) is this machine's loopback interface. */
function isLoopbackName(name: string): boolean {
  return (
    name === 'localhost' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name) ||
    name === '[::1]' ||
    // IPv4-mapped 127.0.0.0/8, as the URL parser writes it: [::ffff:7f00:1].
    /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(name)
  )
}

/** Whether a listen address (`--host`) accepts connections from other machines. */
export function isLoopbackHost(host: string): boolean {
  const name = hostNameOf(host)
  return name !== null && isLoopbackName(name)
}

/** Whether a listen address is every interface (`0.0.0.0`, `::`): no client addresses the server by it. */
export function isWildcardHost(host: string): boolean {
  const name = hostNameOf(host)
  return name !== null && WILDCARD_ADDRESSES.has(name)
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest()

// The port a browser's Origin implies when it names none.
const defaultPort = (protocol: string) => (protocol === 'https:' ? '443' : '80')

/** The media type of a Content-Type value, without parameters, lower case. */
function mediaType(value: string): string {
  return (value.split(';')[0] ?? '').trim().toLowerCase()
}

function hasBody(headers: Headers): boolean {
  const length = headers.get('content-length')
  return (length !== null && length.trim() !== '0') || headers.get('transfer-encoding') !== null
}

/**
 * The guard of the control API: a function of a request answering its refusal, or null to let it
 * through. Checks, in this order: the host it is addressed to (403), that no page of another origin
 * sent it (403), the control token (401), and that a body is JSON (415).
 */
export function controlGuard(options: ControlGuardOptions): (request: Request) => ControlRefusal | null {
  const anyHost = options.allowedHosts?.includes('*') === true
  const allowed = new Set(
    (options.allowedHosts ?? []).flatMap((entry) => {
      const name = entry === '*' ? null : hostNameOf(entry)
      return name === null || WILDCARD_ADDRESSES.has(name) ? [] : [name]
    }),
  )
  const expected = options.controlToken === undefined ? null : sha256(options.controlToken)
  const hostAllowed = (name: string) => anyHost || isLoopbackName(name) || allowed.has(name)
  return (request) => {
    const url = new URL(request.url)
    const hostHeader = request.headers.get('host')
    // The Host header (what a DNS-rebinding page cannot change) and the URL's host (an absolute-form
    // target's) must both be allowed.
    for (const host of hostHeader === null ? [url.host] : [hostHeader, url.host]) {
      const name = hostNameOf(host)
      if (name === null || !hostAllowed(name)) {
        return {
          status: 403,
          message: `the control API answers only requests for localhost, 127.0.0.1 or [::1], or a host allowed with --allow-host or --public-url, not for host ${JSON.stringify(host)} (a defence against DNS rebinding)`,
        }
      }
    }
    const origin = request.headers.get('origin')
    if (origin !== null && !sameOrigin(origin, hostHeader ?? url.host)) {
      return {
        status: 403,
        message: `the control API refuses requests from web pages of another origin (Origin: ${origin})`,
      }
    }
    const site = request.headers.get('sec-fetch-site')
    if (site !== null && site !== 'same-origin' && site !== 'none') {
      return {
        status: 403,
        message: `the control API refuses requests from web pages of another origin (Sec-Fetch-Site: ${site})`,
      }
    }
    if (expected !== null) {
      const given = request.headers.get('x-patkit-control-token')
      // Equal-length digests, compared in constant time: the answer's timing says nothing about the token.
      if (given === null || !timingSafeEqual(sha256(given), expected)) {
        return {
          status: 401,
          message: 'the control API needs the X-Patkit-Control-Token header with the control token',
        }
      }
    }
    const type = request.headers.get('content-type')
    if (type !== null ? mediaType(type) !== 'application/json' : hasBody(request.headers)) {
      return {
        status: 415,
        message: `${JSON_ONLY}${type === null ? '' : ` (not ${JSON.stringify(type)})`}`,
      }
    }
    return null
  }
}

// Whether an Origin header names the origin the request was addressed to (same host name and port;
// a Host without a port, as behind a TLS proxy, matches http's and https's default ports).
function sameOrigin(origin: string, host: string): boolean {
  let from: URL
  let to: URL
  try {
    from = new URL(origin)
    to = new URL(`http://${host}/`)
  } catch {
    return false // `null` (a sandboxed frame, a file: page) or garbage
  }
  if (from.protocol !== 'http:' && from.protocol !== 'https:') return false
  if (from.hostname !== to.hostname) return false
  const fromPort = from.port || defaultPort(from.protocol)
  return to.port === '' ? fromPort === '80' || fromPort === '443' : fromPort === to.port
}
