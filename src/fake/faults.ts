import { err, ok, type Result } from 'neverthrow'
import type { RandomSource } from '../domain/random.js'
import { ACTION_KEYS, type FaultAction, isInt, validateFaultAction } from './fault-action.js'

export type { FaultAction } from './fault-action.js'
export { MAX_FAULT_BODY_BYTES, MAX_FAULT_BODY_DEPTH } from './fault-action.js'

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
  /**
   * One step per match, in order, instead of one action for every match: an action, or null for the
   * normal answer; the rule is spent after the last step. Not with `times` or the action's fields.
   */
  readonly sequence?: readonly (FaultAction | null)[]
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
  /** Matches left before the rule is spent (steps left, for a sequence); null without `times` or `sequence`. */
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

const MATCH_KEYS = new Set(['method', 'path', 'tokenId', 'times', 'probability', 'sequence'])

/** How many steps a sequence may have. */
const MAX_SEQUENCE_STEPS = 100

/**
 * Checks a rule as received over HTTP (JSON); exported for the in-process API, which shares it.
 */
function validateFaultRule(input: unknown): Result<FaultRuleInput, string> {
  if (input === null || typeof input !== 'object' || Array.isArray(input))
    return err('a fault rule must be a JSON object')
  const rule = input as Record<string, unknown>
  const unknown = Object.keys(rule).find((key) => !MATCH_KEYS.has(key) && !ACTION_KEYS.has(key))
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
  const sequence = rule['sequence']
  if (sequence === undefined) {
    const action = validateFaultAction(rule, null)
    return action.map((fields) => ({ ...matchOf(rule), ...fields }))
  }
  const mixed = Object.keys(rule).find((key) => ACTION_KEYS.has(key))
  if (mixed !== undefined)
    return err(`sequence and ${mixed} exclude each other: each step of a sequence says what it does`)
  if (rule['times'] !== undefined)
    return err('sequence and times exclude each other: a sequence is spent after its last step')
  if (!Array.isArray(sequence) || sequence.length < 1 || sequence.length > MAX_SEQUENCE_STEPS)
    return err(`sequence must be a list of 1 to ${MAX_SEQUENCE_STEPS} steps, each an action or null`)
  const steps: (FaultAction | null)[] = []
  for (const [index, step] of (sequence as unknown[]).entries()) {
    if (step === null) {
      steps.push(null)
      continue
    }
    if (typeof step !== 'object' || Array.isArray(step))
      return err(`sequence[${index}]: a step must be an object (an action) or null (the normal answer)`)
    const stray = Object.keys(step).find((key) => !ACTION_KEYS.has(key))
    if (stray !== undefined) return err(`sequence[${index}]: ${stray} is not a field of a step`)
    const action = validateFaultAction(step as Record<string, unknown>, index)
    if (action.isErr()) return err(action.error)
    steps.push(action.value)
  }
  return ok({ ...matchOf(rule), sequence: steps })
}

// The matching fields of a checked rule, the method in upper case.
function matchOf(rule: Readonly<Record<string, unknown>>): FaultRuleInput {
  const match: Record<string, unknown> = {}
  for (const key of ['method', 'path', 'tokenId', 'times', 'probability'])
    if (rule[key] !== undefined) match[key] = rule[key]
  if (typeof rule['method'] === 'string') match['method'] = rule['method'].toUpperCase()
  return match as FaultRuleInput
}

/**
 * What a rule that just acted does to its request: the rule's own action, or the step of its sequence
 * that this hit reached; null for a step that lets the request through unchanged.
 */
export function faultActionOf(hit: FaultRule): FaultAction | null {
  if (hit.sequence === undefined) return hit
  return hit.sequence[hit.hits - 1] ?? null
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
        remaining: valid.value.sequence?.length ?? valid.value.times ?? null,
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
