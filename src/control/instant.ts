// An ISO 8601 instant that names its zone (`Z` or an offset), so it means one instant on every machine.
const ZONED_INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d{1,9})?)?(?:Z|[+-]\d\d:?\d\d)$/i

/** The latest instant a JavaScript Date holds: ±8.64e15 ms around 1970. */
const LIMIT_MS = 8.64e15

/**
 * The instant an ISO 8601 text with `Z` or an offset names, or null (no zone, malformed, or beyond
 * what a Date holds). `--clock` and `POST /__patkit/clock/set` read instants with it.
 *
 * @example
 * ```ts
 * import { parseZonedInstant } from './instant.js'
 *
 * parseZonedInstant('2026-01-01T00:00:00Z')?.toISOString() // '2026-01-01T00:00:00.000Z'
 * parseZonedInstant('2026-01-01T00:00:00') // null: which zone?
 * ```
 */
export function parseZonedInstant(text: string): Date | null {
  if (!ZONED_INSTANT.test(text)) return null
  const at = new Date(text)
  return Number.isNaN(at.getTime()) ? null : at
}

/**
 * Whether `ms` after `at` is still an instant a Date holds (a clock moved past it would answer
 * `Invalid Date` to everything that reads it).
 *
 * @example
 * ```ts
 * import { canMove } from './instant.js'
 *
 * canMove(new Date(0), 1e20) // false
 * ```
 */
export function canMove(at: Date, ms: number): boolean {
  return Math.abs(at.getTime() + ms) <= LIMIT_MS
}
