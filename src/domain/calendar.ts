import { err, ok, type Result } from 'neverthrow'

// Plain UTC arithmetic on Date's UTC fields: a day is always 86,400,000 ms in UTC (no DST), which is
// all these helpers need. (They used date-fns, whose barrel cost about 100 ms of every cold import.)

const MS_PER_DAY = 86_400_000

/**
 * A calendar day in UTC, written `YYYY-MM-DD` (GitLab's `expires_at` format).
 *
 * @example
 * ```ts
 * import type { CalendarDate } from 'patkit/store'
 * const day: CalendarDate = '2030-01-01'
 * ```
 */
export type CalendarDate = `${number}-${number}-${number}`

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/

/** Parses a strict `YYYY-MM-DD` string naming a day that exists (no 2027-02-29). */
export function parseCalendarDate(value: string): Result<CalendarDate, 'invalid_date'> {
  const match = CALENDAR_DATE.exec(value)
  if (match === null) return err('invalid_date')
  const [, y, m, d] = match.map(Number) as [number, number, number, number]
  // Date.UTC rolls 02-30 over into March, so a round trip is what rejects days that do not exist.
  const utc = new Date(Date.UTC(y, m - 1, d))
  if (utc.getUTCFullYear() !== y || utc.getUTCMonth() !== m - 1 || utc.getUTCDate() !== d) {
    return err('invalid_date')
  }
  return ok(value as CalendarDate)
}

/**
 * The UTC calendar day an instant falls on.
 *
 * @example
 * ```ts
 * import { utcDay } from 'patkit/store'
 * utcDay(new Date('2026-01-31T23:59:59.999Z')) // '2026-01-31'
 * ```
 */
export function utcDay(at: Date): CalendarDate {
  return formatUtcDay(at)
}

/**
 * `YYYY-MM-DD` of an instant's UTC fields, written as date-fns' `yyyy-MM-dd` wrote it: the year padded
 * to four digits (year 0 and earlier as the era year, 1 - year), and a RangeError for an invalid date.
 */
function formatUtcDay(at: Date): CalendarDate {
  const time = at.getTime()
  if (Number.isNaN(time)) throw new RangeError('Invalid time value')
  const utc = new Date(time)
  const year = utc.getUTCFullYear()
  const pad = (value: number, width: number) => String(value).padStart(width, '0')
  return `${pad(year > 0 ? year : 1 - year, 4)}-${pad(utc.getUTCMonth() + 1, 2)}-${pad(utc.getUTCDate(), 2)}` as CalendarDate
}

/** The instant 00:00:00.000 UTC that starts a calendar day. */
export function startOfUtcDay(day: CalendarDate): Date {
  return new Date(`${day}T00:00:00.000Z`)
}

/** Adds whole days to a calendar day, in UTC, so no local time zone or DST shift can move it. */
export function addCalendarDays(day: CalendarDate, days: number): CalendarDate {
  const at = startOfUtcDay(day)
  // setUTCDate truncates the sum and carries across months and years, as date-fns' addDays did (a NaN
  // count gives an invalid date, which formatting refuses with a RangeError, as before).
  at.setUTCDate(at.getUTCDate() + days)
  return formatUtcDay(at)
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function calendarDaysBetween(from: CalendarDate, to: CalendarDate): number {
  // Both are midnights UTC, so the difference is a whole number of days; round as date-fns did.
  return Math.round((startOfUtcDay(to).getTime() - startOfUtcDay(from).getTime()) / MS_PER_DAY)
}
