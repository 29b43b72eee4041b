import { type CalendarDate, startOfUtcDay } from '../domain/calendar.js'

// Parsing the expiry day is the costly part of `isExpired`, and every authentication, every rendered
// token and every token a `state` filter reads asks it. Tokens share few expiry days, so each day's
// start is remembered; the bound keeps an endless variety of days from growing the map.
const REMEMBERED_DAYS = 4096
const dayStarts = new Map<CalendarDate, number>()

/**
 * `isExpired({ expiresAt }, now)` from the domain, with the start of each expiry day remembered: true
 * from 00:00 UTC of `expiresAt` on, never for `null`.
 *
 * @example
 * ```ts
 * expiredAt('2030-01-01', new Date('2030-01-01T00:00:00.000Z')) // true
 * expiredAt(null, new Date()) // false
 * ```
 */
export function expiredAt(expiresAt: CalendarDate | null, now: Date): boolean {
  if (expiresAt === null) return false
  let start = dayStarts.get(expiresAt)
  if (start === undefined) {
    if (dayStarts.size >= REMEMBERED_DAYS) dayStarts.clear()
    start = startOfUtcDay(expiresAt).getTime()
    dayStarts.set(expiresAt, start)
  }
  return start <= now.getTime()
}
