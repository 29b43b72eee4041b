import { addCalendarDays, type CalendarDate, calendarDaysBetween, utcDay } from '../../domain/calendar.js'
import type { NoticeInterval } from '../../store/hook-store.js'

// GitLab's PersonalAccessToken::NOTIFICATION_INTERVALS (app/models/personal_access_token.rb, index id
// 2638073439): sixty_days 31..60, thirty_days 8..30, seven_days 0..7 days left. Day 0 counts:
// `scope_for_notification_interval` selects `expires_at BETWEEN Date.current + min AND Date.current + max`
// whether or not the token has expired, so a token no earlier run notified (one created after the
// day's run, expiring the next day) hears the 7-day notice on its expiry day.
const RANGES: readonly { readonly interval: NoticeInterval; readonly from: number }[] = [
  { interval: 60, from: 31 },
  { interval: 30, from: 8 },
  { interval: 7, from: 0 },
]

/** A notice that fell due on a day of a window, oldest interval first. */
export interface DueNotice {
  readonly interval: NoticeInterval
  /** The first day of the window on which the token's days left were in the interval's range. */
  readonly on: CalendarDate
}

/**
 * The notices a daily run would have found for one token on each day from `first` through `today`
 * (never before the token's creation day): each interval whose range of days left the window reaches,
 * in the order the days came (60, 30, 7). Whether one was given before is the store's (`claimNotice`).
 */
export function noticesDue(
  token: { readonly createdAt: Date; readonly expiresAt: CalendarDate },
  first: CalendarDate,
  today: CalendarDate,
): DueNotice[] {
  const created = utcDay(token.createdAt)
  const start = calendarDaysBetween(first, created) > 0 ? created : first
  if (calendarDaysBetween(start, today) < 0) return []
  const most = calendarDaysBetween(start, token.expiresAt)
  const least = Math.max(0, calendarDaysBetween(today, token.expiresAt))
  const due: DueNotice[] = []
  for (const { interval, from } of RANGES) {
    if (from > most || interval < least) continue
    const entered = addCalendarDays(token.expiresAt, -interval)
    due.push({ interval, on: calendarDaysBetween(start, entered) > 0 ? entered : start })
  }
  return due
}

/** GitLab's name of an interval (`seven_days`, ...). */
export function intervalName(interval: NoticeInterval): 'seven_days' | 'thirty_days' | 'sixty_days' {
  return interval === 7 ? 'seven_days' : interval === 30 ? 'thirty_days' : 'sixty_days'
}
