import { describe, expect, it } from 'vitest'
import {
  addCalendarDays,
  calendarDaysBetween,
  parseCalendarDate,
  startOfUtcDay,
  utcDay,
} from '../../src/domain/calendar.js'

describe('calendar dates (UTC)', () => {
  it('parses a strict YYYY-MM-DD day that exists, including a leap day', () => {
    expect(parseCalendarDate('2028-02-29')._unsafeUnwrap()).toBe('2028-02-29')
    expect(parseCalendarDate('2027-02-29')._unsafeUnwrapErr()).toBe('invalid_date')
    expect(parseCalendarDate('2027-13-01').isErr()).toBe(true)
    expect(parseCalendarDate('2027-1-01').isErr()).toBe(true)
    expect(parseCalendarDate('2027-01-01T00:00:00Z').isErr()).toBe(true)
    expect(parseCalendarDate('').isErr()).toBe(true)
  })

  it('takes the UTC day of an instant, whatever the local time zone', () => {
    expect(utcDay(new Date('2026-01-31T23:59:59.999Z'))).toBe('2026-01-31')
    expect(utcDay(new Date('2026-02-01T00:00:00.000Z'))).toBe('2026-02-01')
    expect(utcDay(new Date('2026-02-01T01:00:00.000+02:00'))).toBe('2026-01-31')
  })

  it('adds days across a month end, a year end and a leap day', () => {
    expect(addCalendarDays('2026-01-28', 7)).toBe('2026-02-04')
    expect(addCalendarDays('2026-12-29', 7)).toBe('2027-01-05')
    expect(addCalendarDays('2028-02-25', 7)).toBe('2028-03-03')
    expect(addCalendarDays('2028-02-28', 1)).toBe('2028-02-29')
    expect(calendarDaysBetween('2028-01-01', '2029-01-01')).toBe(366)
    expect(calendarDaysBetween('2027-01-01', '2028-01-01')).toBe(365)
  })

  it('starts a day at 00:00:00.000 UTC', () => {
    expect(startOfUtcDay('2030-01-01').toISOString()).toBe('2030-01-01T00:00:00.000Z')
  })
})
