import type { IncomingHttpHeaders } from 'node:http'
import { isSecretParameter } from './journal-path.js'

/**
 * What a journal entry shows of a request and its answer when it is opened: the request's headers and
 * query parameters, and the answer's status and body, every credential filtered (`[FILTERED]`): the
 * `PRIVATE-TOKEN`, `Authorization`, `Job-Token`, `X-Patkit-Control-Token`, `Cookie` and `Set-Cookie`
 * headers, every query parameter whose name names a credential (`private_token`, ...), and in the
 * body every field whose name does (`token`, ...). A body over {@link DETAIL_BODY_LIMIT} characters
 * is cut there.
 *
 * @example
 * ```ts
 * import type { RequestDetail } from 'patkit/fake'
 *
 * const detail: RequestDetail = {
 *   headers: { 'private-token': '[FILTERED]', accept: 'application/json' },
 *   params: { page: '2' },
 *   answer: { status: 401, body: '{"message":"401 Unauthorized"}' },
 * }
 * ```
 */
export interface RequestDetail {
  /** Header names in lower case; a header sent several times, its values joined by `, `. */
  readonly headers: Readonly<Record<string, string>>
  /** The query's parameters (a name sent several times keeps its last value). */
  readonly params: Readonly<Record<string, string>>
  readonly answer: { readonly status: number; readonly body: string | null }
}

/** The longest answer body a journal entry keeps, in characters. */
export const DETAIL_BODY_LIMIT = 4096

export const FILTERED = '[FILTERED]'

const SECRET_HEADERS = new Set([
  'private-token',
  'authorization',
  'job-token',
  'x-patkit-control-token',
  'cookie',
  'set-cookie',
  'proxy-authorization',
])

/** A request's headers with every credential filtered. */
export function filteredHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const shown: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue
    const lower = name.toLowerCase()
    shown[lower] =
      SECRET_HEADERS.has(lower) || isSecretParameter(lower)
        ? FILTERED
        : Array.isArray(value)
          ? value.join(', ')
          : value
  }
  return shown
}

/** A URL's query parameters with every credential filtered. */
export function filteredParams(url: URL | null): Record<string, string> {
  const params: Record<string, string> = {}
  if (url === null) return params
  for (const [name, value] of url.searchParams) params[name] = isSecretParameter(name) ? FILTERED : value
  return params
}

function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      isSecretParameter(k) && v !== null ? FILTERED : withoutSecrets(v),
    ]),
  )
}

/**
 * An answer's body as the journal shows it: JSON with every credential-named field filtered; text that
 * is not JSON as it is, unless it could hold a secret the fake cannot find in it (then `[FILTERED]`).
 */
export function filteredBody(body: string | null): string | null {
  if (body === null || body === '') return body === '' ? '' : null
  let shown: string
  try {
    shown = JSON.stringify(withoutSecrets(JSON.parse(body)))
  } catch {
    shown = /token|secret|password/i.test(body) ? FILTERED : body
  }
  return shown.length > DETAIL_BODY_LIMIT ? `${shown.slice(0, DETAIL_BODY_LIMIT)}…` : shown
}

/** The `message` or `error` text of a JSON answer (GitLab's error bodies), if it has one. */
export function answerText(body: string | null): string | null {
  if (body === null || !body.startsWith('{')) return null
  try {
    const value = JSON.parse(body) as { message?: unknown; error?: unknown }
    if (typeof value.message === 'string') return value.message
    if (typeof value.error === 'string') return value.error
    return null
  } catch {
    return null
  }
}
