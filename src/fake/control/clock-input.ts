import { parseZonedInstant } from './instant.js'

// A Map, not an object: `constructor`, `toString` or `__proto__` in a body are no units.
const UNITS_MS: ReadonlyMap<string, number> = new Map([
  ['ms', 1],
  ['seconds', 1000],
  ['minutes', 60_000],
  ['hours', 3_600_000],
  ['days', 86_400_000],
])

/** The units `POST /__patkit/clock/advance` takes. */
export const CLOCK_UNITS: readonly string[] = [...UNITS_MS.keys()]

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

/**
 * The milliseconds of `{ "days": 7, "hours": 1 }` or `{ "ms": 500 }` (the sum, rounded), or a sentence
 * saying what is wrong. `undefined` is an absent body.
 */
export function durationMs(body: unknown): number | string {
  if (!isObject(body)) return 'the body must be a JSON object: the duration, e.g. {"days": 7}'
  const entries = Object.entries(body)
  if (entries.length === 0) return `give one or more of ${CLOCK_UNITS.join(', ')}`
  let total = 0
  for (const [unit, amount] of entries) {
    const scale = UNITS_MS.get(unit)
    if (scale === undefined) return `${unit} is not a unit (${CLOCK_UNITS.join(', ')})`
    if (typeof amount !== 'number' || !Number.isFinite(amount)) return `${unit} must be a number`
    total += amount * scale
  }
  return Math.round(total)
}

/**
 * The instant of `{ "at": "2026-01-10T00:00:00Z" }`, or a sentence saying what is wrong (no object,
 * a field other than `at`, an instant {@link parseZonedInstant} refuses). `undefined` is an absent body.
 */
export function clockTarget(body: unknown): Date | string {
  if (!isObject(body)) return 'the body must be a JSON object: {"at": "2026-01-10T00:00:00Z"}'
  const unknown = Object.keys(body).find((key) => key !== 'at')
  if (unknown !== undefined) return `${unknown} is not a clock/set field (at)`
  const at = body['at']
  const instant = typeof at === 'string' ? parseZonedInstant(at) : null
  return (
    instant ??
    'at must be an ISO 8601 instant with Z or an offset, on a real calendar day, e.g. 2026-01-10T00:00:00Z'
  )
}
