import { err, ok, type Result } from 'neverthrow'

/**
 * What a fault does to a request it matches: answer with a status and body instead of the authority,
 * wait before going on (latency), or drop the connection without an answer. `delayMs` combines with
 * either of the others or stands alone (the request then goes on to the authority, late). With
 * `lostAnswer`, the authority serves the request first (a rotation commits) and the answer it wrote is
 * lost: the client gets the `status` (a 502, as a proxy would answer) or a dropped connection instead.
 *
 * @example
 * ```ts
 * import type { FaultAction } from 'patkit/fake'
 *
 * const outage: FaultAction = { status: 503, body: { message: '503 Service Unavailable' } }
 * const slow: FaultAction = { delayMs: 2000 }
 * const reset: FaultAction = { drop: true }
 * const committedThenLost: FaultAction = { lostAnswer: true, status: 502 }
 * ```
 */
export interface FaultAction {
  /** The status to answer with: 200 to 599 (a 1xx is no final answer; 205 is refused, see the docs). */
  readonly status?: number
  /**
   * JSON body of the answer (with `status`); default GitLab's `{"message":"<status> ..."}` form. At
   * most {@link MAX_FAULT_BODY_DEPTH} levels deep and {@link MAX_FAULT_BODY_BYTES} bytes as JSON; none
   * with 204 or 304, which answer without content.
   */
  readonly body?: unknown
  /**
   * Response headers of the answer (with `status`), e.g. `{ "Retry-After": "30" }` to imitate a 429:
   * names are RFC 9110 tokens, values single-line text; framing and hop-by-hop headers
   * (`Content-Length`, `Transfer-Encoding`, `Connection`, ...) are refused. A `Content-Type` here
   * replaces the default `application/json`.
   */
  readonly headers?: Readonly<Record<string, string>>
  /** Wait this long (0 to 600000 ms) first. */
  readonly delayMs?: number
  /** Close the connection without an answer (not with `status`). */
  readonly drop?: boolean
  /**
   * Serve the request for real first (the operation commits), then lose its answer: `drop` closes the
   * connection instead, `status` (with `body`, `headers`) answers instead. Needs one of them.
   */
  readonly lostAnswer?: boolean
}

/**
 * How deep a fault rule's `body` may nest: GitLab's error bodies are two or three levels deep, and a
 * deeper one would overflow the stack of the JSON writer that answers `GET /__patkit/faults`.
 */
export const MAX_FAULT_BODY_DEPTH = 64

/**
 * How large a fault rule's `body` may be, in bytes of JSON (UTF-8).
 */
export const MAX_FAULT_BODY_BYTES = 65_536

/** How many headers a fault rule may set. */
const MAX_FAULT_HEADERS = 32
/** How long one header value may be. */
const MAX_HEADER_VALUE = 8_192
// Values in the bounded walk of a body before it counts as too large: a body shared by reference
// (in process) can have few distinct parts and exponentially many paths.
const MAX_BODY_VALUES = 100_000

// Statuses whose answer has no content (RFC 9110 15.3.5, 15.4.5): node sends none for these.
const NO_CONTENT = new Set([204, 304])

// RFC 9110 5.1: a field name is a token.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
// RFC 9110 5.5, as node accepts it: visible ASCII, space, tab and obs-text; never CR, LF or NUL.
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/
// Framing and hop-by-hop fields (RFC 9110 7.6.1, RFC 9112 6 and 9.6), and those node writes itself:
// a fault decides the status, the body and the headers a client reads, not how the answer travels.
const REFUSED_HEADERS = new Set([
  'connection',
  'content-length',
  'date',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
])

export function isInt(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max
}

// Walks the body without recursion (a deep body must not overflow the stack of its own check).
function bodyProblem(body: unknown): string | null {
  const pending: { readonly value: unknown; readonly depth: number }[] = [{ value: body, depth: 1 }]
  for (let seen = 0; pending.length > 0; seen++) {
    if (seen >= MAX_BODY_VALUES) return `body must be at most ${MAX_FAULT_BODY_BYTES} bytes as JSON`
    const next = pending.pop()
    if (next === undefined || next.value === null || typeof next.value !== 'object') continue
    if (next.depth > MAX_FAULT_BODY_DEPTH) return `body must nest at most ${MAX_FAULT_BODY_DEPTH} levels deep`
    for (const child of Object.values(next.value)) pending.push({ value: child, depth: next.depth + 1 })
  }
  return null
}

// The body as the answer will carry it: checked, written once, and read back, so the stored rule is
// plain JSON that no caller can change afterwards.
function jsonBody(body: unknown): Result<unknown, string> {
  const problem = bodyProblem(body)
  if (problem !== null) return err(problem)
  let text: string | undefined
  try {
    text = JSON.stringify(body)
  } catch {
    return err('body must be JSON data (no cycles, no BigInt)')
  }
  if (text === undefined) return err('body must be JSON data')
  if (new TextEncoder().encode(text).length > MAX_FAULT_BODY_BYTES) {
    return err(`body must be at most ${MAX_FAULT_BODY_BYTES} bytes as JSON`)
  }
  return ok(JSON.parse(text))
}

function headersOf(input: unknown): Result<Record<string, string>, string> {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    return err('headers must be an object of header names to text values')
  }
  const entries = Object.entries(input)
  if (entries.length > MAX_FAULT_HEADERS) return err(`headers may set at most ${MAX_FAULT_HEADERS} headers`)
  const names = new Set<string>()
  const headers: Record<string, string> = {}
  for (const [name, value] of entries) {
    if (!TOKEN.test(name))
      return err(`headers: ${JSON.stringify(name)} is not a header name (RFC 9110 token)`)
    const lower = name.toLowerCase()
    if (REFUSED_HEADERS.has(lower)) {
      return err(`headers: ${name} is refused: the server frames the answer itself`)
    }
    if (names.has(lower)) return err(`headers: ${name} is given twice`)
    names.add(lower)
    if (typeof value !== 'string') return err(`headers: the value of ${name} must be text`)
    if (value.length > MAX_HEADER_VALUE || !FIELD_VALUE.test(value)) {
      return err(
        `headers: the value of ${name} must be one line of at most ${MAX_HEADER_VALUE} characters (no CR, LF or control characters)`,
      )
    }
    headers[name] = value
  }
  return ok(headers)
}

/** The fields of a {@link FaultAction}, as a rule or a step of a sequence has them. */
export const ACTION_KEYS: ReadonlySet<string> = new Set([
  'status',
  'body',
  'headers',
  'delayMs',
  'drop',
  'lostAnswer',
])

/**
 * Checks the action fields of a rule, or of one step of a sequence (then `step` is its index and each
 * sentence names it: `sequence[1]: status must be ...`). Other fields are left to the caller.
 */
export function validateFaultAction(
  fields: Readonly<Record<string, unknown>>,
  step: number | null,
): Result<FaultAction, string> {
  const where = step === null ? '' : `sequence[${step}]: `
  const fail = (sentence: string) => err(`${where}${sentence}`)
  const status = fields['status']
  if (status !== undefined && !isInt(status, 200, 599))
    return fail(
      'status must be an integer from 200 to 599: a client takes a 1xx for an interim answer and waits for the final one',
    )
  if (status === 205)
    return fail('status 205 is refused: it answers without content, and a fault answers with a body; use 204')
  if (fields['delayMs'] !== undefined && !isInt(fields['delayMs'], 0, 600_000))
    return fail('delayMs must be an integer from 0 to 600000')
  if (fields['drop'] !== undefined && typeof fields['drop'] !== 'boolean')
    return fail('drop must be true or false')
  if (fields['lostAnswer'] !== undefined && typeof fields['lostAnswer'] !== 'boolean')
    return fail('lostAnswer must be true or false')
  if (fields['body'] !== undefined && status === undefined) return fail('body needs status')
  if (fields['headers'] !== undefined && status === undefined) return fail('headers needs status')
  if (fields['drop'] === true && status !== undefined) return fail('drop and status exclude each other')
  if (fields['lostAnswer'] === true && status === undefined && fields['drop'] !== true)
    return fail('lostAnswer needs status or drop: what the client gets instead of the real answer')
  if (status === undefined && fields['drop'] !== true && fields['delayMs'] === undefined)
    return fail(
      step === null
        ? 'a fault rule needs status, drop, delayMs or sequence'
        : 'a step needs status, drop or delayMs (null lets the request through unchanged)',
    )
  if (fields['body'] !== undefined && NO_CONTENT.has(status as number))
    return fail(`body is refused with status ${String(status)}, which answers without content`)
  const body = fields['body'] === undefined ? ok(undefined) : jsonBody(fields['body'])
  if (body.isErr()) return fail(body.error)
  const headers = fields['headers'] === undefined ? ok(undefined) : headersOf(fields['headers'])
  if (headers.isErr()) return fail(headers.error)
  const action: Record<string, unknown> = {}
  for (const key of ACTION_KEYS) if (fields[key] !== undefined) action[key] = fields[key]
  if (body.value !== undefined) action['body'] = body.value
  if (headers.value !== undefined) action['headers'] = headers.value
  return ok(action as FaultAction)
}

// A fault's body is the rule's, on the dashboard's origin: whatever type the rule gives it (text/html
// with a script), a browser runs nothing of it and sniffs no other type into it. The rule cannot
// replace these.
const INERT: Readonly<Record<string, string>> = {
  'content-security-policy': "sandbox; default-src 'none'",
  'x-content-type-options': 'nosniff',
}

/**
 * The headers of a fault's answer: `Content-Type: application/json` (the body is JSON) unless the
 * rule gives its own, then the rule's `headers`; no `Content-Type` for a 204 or 304, which carry no
 * content. Always `Content-Security-Policy: sandbox; default-src 'none'` and
 * `X-Content-Type-Options: nosniff`, in place of any the rule gives.
 */
export function faultResponseHeaders(rule: FaultAction): Record<string, string> {
  const own = Object.fromEntries(
    Object.entries(rule.headers ?? {}).filter(([name]) => !Object.hasOwn(INERT, name.toLowerCase())),
  )
  const typed = Object.keys(own).some((name) => name.toLowerCase() === 'content-type')
  const withoutContent = rule.status !== undefined && NO_CONTENT.has(rule.status)
  return { ...(typed || withoutContent ? {} : { 'content-type': 'application/json' }), ...own, ...INERT }
}
