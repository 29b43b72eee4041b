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
  readonly status?: number
  /** JSON body of the answer (with `status`); default GitLab's `{"message":"<status> ..."}` form. */
  readonly body?: unknown
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
 *
 * @example
 * ```ts
 * import type { FaultProbe } from './faults.js'
 *
 * const seen: FaultProbe = { method: 'GET', path: '/api/v4/personal_access_tokens/self', tokenId: 3 }
 * ```
 */
export interface FaultProbe {
  readonly method: string
  readonly path: string
  readonly tokenId: number | null
}

/**
 * The fault rules of a fake authority.
 *
 * @example
 * ```ts
 * import { cryptoRandom } from 'patkit'
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
  'delayMs',
  'drop',
])

function isInt(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max
}

/**
 * Checks a rule as received over HTTP (JSON); exported for the in-process API, which shares it.
 *
 * @example
 * ```ts
 * import { validateFaultRule } from './faults.js'
 *
 * validateFaultRule({ status: 99 }) // err('status must be an integer from 100 to 599')
 * ```
 */
export function validateFaultRule(input: unknown): Result<FaultRuleInput, string> {
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
  if (rule['status'] !== undefined && !isInt(rule['status'], 100, 599))
    return err('status must be an integer from 100 to 599')
  if (rule['delayMs'] !== undefined && !isInt(rule['delayMs'], 0, 600_000))
    return err('delayMs must be an integer from 0 to 600000')
  if (rule['drop'] !== undefined && typeof rule['drop'] !== 'boolean')
    return err('drop must be true or false')
  if (rule['body'] !== undefined && rule['status'] === undefined) return err('body needs status')
  if (rule['drop'] === true && rule['status'] !== undefined) return err('drop and status exclude each other')
  if (rule['status'] === undefined && rule['drop'] !== true && rule['delayMs'] === undefined)
    return err('a fault rule needs status, drop or delayMs')
  const { method, ...rest } = rule as FaultRuleInput & Record<string, unknown>
  return ok({ ...rest, ...(method === undefined ? {} : { method: method.toUpperCase() }) } as FaultRuleInput)
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
 *
 * @example
 * ```ts
 * import { seededRandom } from 'patkit/fake'
 * import { createFaults } from './faults.js'
 *
 * const faults = createFaults(seededRandom(42))
 * ```
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
