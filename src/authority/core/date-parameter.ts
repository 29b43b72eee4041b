import { ok, type Result } from 'neverthrow'
import { type CalendarDate, parseCalendarDate } from '../../domain/calendar.js'
import { invalidParameter } from '../../domain/error-constructors.js'
import type { ErrorOf } from '../../domain/errors.js'

/** Parses an optional `YYYY-MM-DD` request parameter; a malformed one is `<parameter> is invalid`. */
export function parseDateParameter(
  value: string | undefined,
  parameter: string,
): Result<CalendarDate | undefined, ErrorOf<'invalid_parameter'>> {
  if (value === undefined) return ok(undefined)
  return parseCalendarDate(value).mapErr(() => invalidParameter(parameter, 'invalid'))
}
