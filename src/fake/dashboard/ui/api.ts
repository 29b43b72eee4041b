// Every call of the dashboard to the control API: relative to the page (served at /__patkit/), with
// the control token the user typed, kept for the tab's session only, in X-Patkit-Control-Token.

const TOKEN_KEY = 'patkit.controlToken'

export function controlToken(): string | null {
  return sessionStorage.getItem(TOKEN_KEY)
}

export function setControlToken(token: string | null): void {
  if (token === null || token === '') sessionStorage.removeItem(TOKEN_KEY)
  else sessionStorage.setItem(TOKEN_KEY, token)
}

/** The absolute URL of a control route, `tokens?page=2` → `http://host/__patkit/tokens?page=2`. */
export function controlUrl(route: string): string {
  return new URL(route, new URL('./', location.href)).toString()
}

export function controlHeaders(json: boolean): Headers {
  const headers = new Headers()
  const token = controlToken()
  if (token !== null) headers.set('x-patkit-control-token', token)
  if (json) headers.set('content-type', 'application/json')
  return headers
}

/** An answer of the control API: its status, headers and parsed JSON body (null when none). */
export interface Answer<T> {
  readonly ok: boolean
  readonly status: number
  readonly headers: Headers
  readonly body: T
}

/** Listeners told when an answer is 401, so the app asks for the control token. */
const unauthorized = new Set<() => void>()
export function onUnauthorized(listener: () => void): () => void {
  unauthorized.add(listener)
  return () => unauthorized.delete(listener)
}

export async function call<T>(method: string, route: string, body?: unknown): Promise<Answer<T>> {
  const init: RequestInit = { method, headers: controlHeaders(body !== undefined) }
  if (body !== undefined) init.body = JSON.stringify(body)
  let response: Response
  try {
    response = await fetch(controlUrl(route), init)
  } catch {
    return { ok: false, status: 0, headers: new Headers(), body: { error: 'the fake did not answer' } as T }
  }
  if (response.status === 401) for (const listener of unauthorized) listener()
  const text = await response.text()
  let parsed: unknown = null
  try {
    parsed = text === '' ? null : JSON.parse(text)
  } catch {
    parsed = { error: text }
  }
  return { ok: response.ok, status: response.status, headers: response.headers, body: parsed as T }
}

/** The sentence of a failed answer: the control API's `error`, GitLab's `message`, or the status. */
export function failure(answer: Answer<unknown>): string {
  const body = answer.body
  if (body !== null && typeof body === 'object') {
    const record = body as Record<string, unknown>
    const text = record['error'] ?? record['message']
    if (typeof text === 'string') return `${answer.status}: ${text}`
    if (text !== undefined) return `${answer.status}: ${JSON.stringify(text)}`
  }
  return answer.status === 0 ? 'the fake did not answer' : `${answer.status}`
}

/** The page headers of a paginated answer (X-Total, X-Page, ...), as numbers; null when absent. */
export interface PageInfo {
  readonly total: number | null
  readonly totalPages: number | null
  readonly page: number
  readonly perPage: number
  readonly next: number | null
  readonly prev: number | null
}

function numberHeader(headers: Headers, name: string): number | null {
  const value = headers.get(name)
  if (value === null || value.trim() === '') return null
  const n = Number(value)
  return Number.isFinite(n) ? n : null
}

export function pageInfo(headers: Headers): PageInfo {
  return {
    total: numberHeader(headers, 'x-total'),
    totalPages: numberHeader(headers, 'x-total-pages'),
    page: numberHeader(headers, 'x-page') ?? 1,
    perPage: numberHeader(headers, 'x-per-page') ?? 20,
    next: numberHeader(headers, 'x-next-page'),
    prev: numberHeader(headers, 'x-prev-page'),
  }
}
