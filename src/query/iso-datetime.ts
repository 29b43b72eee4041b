import { err, ok, type Result } from 'neverthrow'
import { type CalendarDate, parseCalendarDate, startOfUtcDay } from '../domain/calendar.js'

/**
 * An ISO 8601 date or date-time as the list filters read it.
 */
interface IsoDateTime {
  /** The calendar day as written, before any zone shift: what GitLab's `Date` coercion keeps. */
  readonly day: CalendarDate
  /** The instant in UTC, truncated to the millisecond. */
  readonly instant: Date
  /** True when non-zero digits below the millisecond were dropped: the written instant is later. */
  readonly truncated: boolean
}

// Date, then optionally a time (seconds and fraction optional) and a zone. A zone without a time is
// refused: GitLab's parser would read it, but nobody writes it on purpose. Ruby's DateTime parser,
// which GitLab's DateTime parameters go through, also reads a colon after the `T`
// (`2022-01-01T:12:30:26`, in GitLab's own spec) and a zone after a space, by name (`UTC`, `GMT`,
// `Z`) or offset (`2026-12-22 23:20:00 UTC`, as Ruby's `Time#to_s` writes an instant).
const ISO_DATE_TIME =
  /^(\d{4}-\d{2}-\d{2})(?:[Tt ]:?(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)? ?(?:[Zz]|UTC|GMT|utc|gmt|([+-])(\d{2})(?::?(\d{2}))?)?)?$/

/**
 * Parses an ISO 8601 date (`2022-01-01`, meaning 00:00:00.000 UTC) or date-time (`2022-01-01T10:00:00Z`,
 * `2022-01-01T10:00:00.123+02:00`; `2022-01-01 10:00` and a value without a zone, read as UTC), and
 * the forms of Ruby's parser that GitLab's own specs and clients send (`2022-01-01T:12:30:26`,
 * `2026-12-22 23:20:00 UTC`, `2026-12-22 23:20:00 +0100`). Strict:
 * the day must exist and every time field must be in range, so `yesterday` or `2022-13-01` fail.
 */
export function parseIsoDateTime(text: string): Result<IsoDateTime, 'invalid_datetime'> {
  const match = ISO_DATE_TIME.exec(text.trim())
  if (match === null) return err('invalid_datetime')
  const [, date = '', hh = '0', mm = '0', ss = '0', fraction = '', sign = '+', oh = '0', om = '0'] = match
  const day = parseCalendarDate(date)
  if (day.isErr()) return err('invalid_datetime')
  const [hours, minutes, seconds, offsetHours, offsetMinutes] = [hh, mm, ss, oh, om].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ]
  if (hours > 23 || minutes > 59 || seconds > 59 || offsetHours > 23 || offsetMinutes > 59) {
    return err('invalid_datetime')
  }
  const millis = Number(fraction.slice(0, 3).padEnd(3, '0'))
  const offsetMs = (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000
  const sinceMidnightMs = ((hours * 60 + minutes) * 60 + seconds) * 1000 + millis
  return ok({
    day: day.value,
    instant: new Date(startOfUtcDay(day.value).getTime() + sinceMidnightMs - offsetMs),
    truncated: /[1-9]/.test(fraction.slice(3)),
  })
}
