import { err, ok, type Result } from 'neverthrow'
import type { RandomSource } from '../domain/random.js'

/**
 * What a fault does to a request it matches: answer with a status and body instead of the authority,
 * wait before going on (latency), or drop the connection without an answer. `delayMs` combines with
 * either of the others or stands alone (the request then goes on to the authority, late).
 *
 * @example
 * ```ts
 * import type { FaultAction } from 'patkit/fake'
 *
 * const outage: FaultAction = { status: 503, body: { message: '503 Service Unavailable' } }
 * const slow: FaultAction = { delayMs: 2000 }
 * const reset: FaultAction = { drop: true }
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
  readonly delayMs?: number
  readonly drop?: boolean
}

/**
 * A fault rule: which requests it matches and what it does to them.
 *
 * @example
 * ```ts
 * import type { FaultRuleInput } from 'patkit/fake'
 *
 * const rule: FaultRuleInput = { method: 'POST', path: '/api/v4/personal_access_tokens/self/rotate', times: 1, status: 500 }
 * ```
 */
export interface FaultRuleInput extends FaultAction {
  /** The method to match; default any. */
  readonly method?: string
  /** The path to match: exact, or a prefix when it ends with `*`; default any. The query is not part of it. */
  readonly path?: string
  /** Only requests presenting this token id (as authenticated before the fault applies); default any. */
  readonly tokenId?: number
  /** Act on the next `times` matches only, then the rule is spent; default every match. */
  readonly times?: number
  /** Act on a match with this probability (0 < p <= 1), drawn from the injected random source; default 1. */
  readonly probability?: number
}

/**
 * A stored fault rule, with its id and how often it acted.
 *
 * @example
 * ```ts
 * import type { FaultRule } from 'patkit/fake'
 *
 * declare const rule: FaultRule
 * rule.hits
 * ```
 */
export interface FaultRule extends FaultRuleInput {
  readonly id: string
  readonly hits: number
  /** Matches left before the rule is spent; null without `times`. */
  readonly remaining: number | null
}

/**
 * A request as fault matching sees it.
 */
interface FaultProbe {
  readonly method: string
  readonly path: string
  readonly tokenId: number | null
}

/**
 * The fault rules of a fake authority.
 *
 * @example
 * ```ts
 * import { cryptoRandom } from 'patkit/authority'
 * import { createFaults } from './faults.js'
 *
 * const faults = createFaults(cryptoRandom)
 * faults.add({ path: '/api/v4/*', status: 503 })
 * ```
 */
export interface Faults {
  /** Validates and stores a rule; the error is a sentence naming the field. */
  add(input: unknown): Result<FaultRule, string>
  list(): readonly FaultRule[]
  /** Removes one rule; false when there is none with that id. */
  remove(id: string): boolean
  clear(): void
  /** The first rule (in the order added) that acts on the request, counted as a hit; undefined if none. */
  take(probe: FaultProbe): FaultRule | undefined
  /** Whether any rule needs the request's token id (so the caller looks it up only then). */
  readonly needsToken: boolean
}

const KEYS = new Set([
  'method',
  'path',
  'tokenId',
  'times',
  'probability',
  'status',
  'body',
  'headers',
  'delayMs',
  'drop',
])

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

function isInt(value: unknown, min: number, max: number): value is number {
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

/**
 * Checks a rule as received over HTTP (JSON); exported for the in-process API, which shares it.
 */
function validateFaultRule(input: unknown): Result<FaultRuleInput, string> {
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    return err('a fault rule must be a JSON object')
  const rule = input as Record<string, unknown>
  const unknown = Object.keys(rule).find((key) => !KEYS.has(key))
  if (unknown !== undefined) return err(`${unknown} is not a fault rule field`)
  if (
    rule['method'] !== undefined &&
    (typeof rule['method'] !== 'string' || !/^[A-Za-z]+$/.test(rule['method']))
  )
    return err('method must be an HTTP method name')
  if (rule['path'] !== undefined && (typeof rule['path'] !== 'string' || !rule['path'].startsWith('/')))
    return err('path must start with /')
  if (rule['tokenId'] !== undefined && !isInt(rule['tokenId'], 1, Number.MAX_SAFE_INTEGER))
    return err('tokenId must be a positive integer')
  if (rule['times'] !== undefined && !isInt(rule['times'], 1, 1_000_000))
    return err('times must be an integer from 1')
  const p = rule['probability']
  if (p !== undefined && (typeof p !== 'number' || !(p > 0 && p <= 1)))
    return err('probability must be in (0, 1]')
  const status = rule['status']
  if (status !== undefined && !isInt(status, 200, 599))
    return err(
      'status must be an integer from 200 to 599: a client takes a 1xx for an interim answer and waits for the final one',
    )
  if (status === 205)
    return err('status 205 is refused: it answers without content, and a fault answers with a body; use 204')
  if (rule['delayMs'] !== undefined && !isInt(rule['delayMs'], 0, 600_000))
    return err('delayMs must be an integer from 0 to 600000')
  if (rule['drop'] !== undefined && typeof rule['drop'] !== 'boolean')
    return err('drop must be true or false')
  if (rule['body'] !== undefined && status === undefined) return err('body needs status')
  if (rule['headers'] !== undefined && status === undefined) return err('headers needs status')
  if (rule['drop'] === true && status !== undefined) return err('drop and status exclude each other')
  if (status === undefined && rule['drop'] !== true && rule['delayMs'] === undefined)
    return err('a fault rule needs status, drop or delayMs')
  if (rule['body'] !== undefined && NO_CONTENT.has(status as number))
    return err(`body is refused with status ${String(status)}, which answers without content`)
  const body = rule['body'] === undefined ? ok(undefined) : jsonBody(rule['body'])
  if (body.isErr()) return err(body.error)
  const headers = rule['headers'] === undefined ? ok(undefined) : headersOf(rule['headers'])
  if (headers.isErr()) return err(headers.error)
  const { method, ...rest } = rule as FaultRuleInput & Record<string, unknown>
  return ok({
    ...rest,
    ...(method === undefined ? {} : { method: method.toUpperCase() }),
    ...(body.value === undefined ? {} : { body: body.value }),
    ...(headers.value === undefined ? {} : { headers: headers.value }),
  } as FaultRuleInput)
}

/**
 * The headers of a fault's answer: `Content-Type: application/json` (the body is JSON) unless the
 * rule gives its own, then the rule's `headers`; no `Content-Type` for a 204 or 304, which carry no
 * content.
 */
export function faultResponseHeaders(rule: FaultAction): Record<string, string> {
  const own = rule.headers ?? {}
  const typed = Object.keys(own).some((name) => name.toLowerCase() === 'content-type')
  const withoutContent = rule.status !== undefined && NO_CONTENT.has(rule.status)
  return { ...(typed || withoutContent ? {} : { 'content-type': 'application/json' }), ...own }
}

function pathMatches(pattern: string | undefined, path: string): boolean {
  if (pattern === undefined) return true
  return pattern.endsWith('*') ? path.startsWith(pattern.slice(0, -1)) : path === pattern
}

// A uniform draw in [0, 1) from 4 random bytes.
function draw(random: RandomSource): number {
  const bytes = random.bytes(4)
  const word = ((bytes[0] ?? 0) << 24) | ((bytes[1] ?? 0) << 16) | ((bytes[2] ?? 0) << 8) | (bytes[3] ?? 0)
  return (word >>> 0) / 2 ** 32
}

/**
 * Creates an empty rule set; probabilities are drawn from `random` (seed it for repeatable runs).
 */
export function createFaults(random: RandomSource): Faults {
  let rules: FaultRule[] = []
  let next = 1
  return {
    add(input) {
      const valid = validateFaultRule(input)
      if (valid.isErr()) return err(valid.error)
      const rule: FaultRule = {
        ...valid.value,
        id: `fault-${next++}`,
        hits: 0,
        remaining: valid.value.times ?? null,
      }
      rules.push(rule)
      return ok(rule)
    },
    list: () => rules,
    remove(id) {
      const before = rules.length
      rules = rules.filter((rule) => rule.id !== id)
      return rules.length < before
    },
    clear() {
      rules = []
    },
    take(probe) {
      for (const [index, rule] of rules.entries()) {
        if (rule.remaining === 0) continue
        if (rule.method !== undefined && rule.method !== probe.method) continue
        if (!pathMatches(rule.path, probe.path)) continue
        if (rule.tokenId !== undefined && rule.tokenId !== probe.tokenId) continue
        if (rule.probability !== undefined && rule.probability < 1 && draw(random) >= rule.probability)
          continue
        const hit = {
          ...rule,
          hits: rule.hits + 1,
          remaining: rule.remaining === null ? null : rule.remaining - 1,
        }
        rules[index] = hit
        return hit
      }
      return undefined
    },
    get needsToken() {
      return rules.some((rule) => rule.tokenId !== undefined && rule.remaining !== 0)
    },
  }
}
