import { parseCalendarDate } from '../../domain/calendar.js'

// An ISO 8601 instant that names its zone (`Z` or an offset), so it means one instant on every machine:
// date, time (seconds optional), zone; each field is checked for range below.
const ZONED_INSTANT = /^(\d{4}-\d\d-\d\d)T(\d\d):(\d\d)(?::(\d\d)(?:\.\d{1,9})?)?(?:Z|[+-](\d\d):?(\d\d))$/i

/** The latest instant a JavaScript Date holds: ±8.64e15 ms around 1970. */
const LIMIT_MS = 8.64e15

const inRange = (field: string | undefined, max: number) => field === undefined || Number(field) <= max

/**
 * The instant an ISO 8601 text with `Z` or an offset names, or null: no zone, malformed, a day that
 * does not exist (`2026-02-30`: checked by `parseCalendarDate`, the day check of the seed format), an
 * hour past 23, a minute or second past 59, an offset past ±23:59. `--clock` and
 * `POST /__patkit/clock/set` read instants with it, and accept what the seed's `created_at` accepts.
 */
export function parseZonedInstant(text: string): Date | null {
  const match = ZONED_INSTANT.exec(text)
  if (match === null) return null
  const [, day = '', hours, minutes, seconds, offsetHours, offsetMinutes] = match
  if (parseCalendarDate(day).isErr()) return null
  if (!inRange(hours, 23) || !inRange(minutes, 59) || !inRange(seconds, 59)) return null
  if (!inRange(offsetHours, 23) || !inRange(offsetMinutes, 59)) return null
  const at = new Date(text)
  return Number.isNaN(at.getTime()) ? null : at
}

/**
 * Whether `ms` after `at` is still an instant a Date holds (a clock moved past it would answer
 * `Invalid Date` to everything that reads it).
 */
export function canMove(at: Date, ms: number): boolean {
  return Math.abs(at.getTime() + ms) <= LIMIT_MS
}
