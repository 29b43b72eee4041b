import { calendarDaysBetween, utcDay } from './calendar.js'
import { isActive, type Token } from './token.js'

/**
 * The days before expiry at which GitLab mails a token's owner (its `ExpiringWorker`, 60/30/7-day
 * notices), tightest last.
 *
 * @example
 * ```ts
 * import { EXPIRY_NOTICE_DAYS } from './expiry-notice.js'
 *
 * EXPIRY_NOTICE_DAYS // [60, 30, 7]
 * ```
 */
export const EXPIRY_NOTICE_DAYS = Object.freeze([60, 30, 7] as const)

/**
 * One of {@link EXPIRY_NOTICE_DAYS}.
 *
 * @example
 * ```ts
 * import type { ExpiryNoticeDays } from './expiry-notice.js'
 *
 * const days: ExpiryNoticeDays = 7
 * ```
 */
export type ExpiryNoticeDays = (typeof EXPIRY_NOTICE_DAYS)[number]

/**
 * The notice a token is due at `now`: the tightest threshold it has passed (at most that many days
 * until its `expires_at` day), unless that one or a tighter one was already given (`notified`). An
 * inactive token, or one that never expires, is due none. A token first seen with 5 days left gets the
 * 7-day notice only: the wider ones would say less, later.
 *
 * @example
 * ```ts
 * import { expiryNoticeDue } from './expiry-notice.js'
 *
 * expiryNoticeDue({ ...token, expiresAt: '2026-01-31' }, new Date('2026-01-02T00:00:00Z'), null) // 30
 * expiryNoticeDue({ ...token, expiresAt: '2026-01-31' }, new Date('2026-01-02T00:00:00Z'), 30) // null
 * ```
 */
export function expiryNoticeDue(
  token: Token,
  now: Date,
  notified: ExpiryNoticeDays | null,
): ExpiryNoticeDays | null {
  if (token.expiresAt === null || !isActive(token, now)) return null
  const left = calendarDaysBetween(utcDay(now), token.expiresAt)
  let due: ExpiryNoticeDays | null = null
  for (const days of EXPIRY_NOTICE_DAYS) if (left <= days) due = days
  if (due === null) return null
  return notified !== null && notified <= due ? null : due
}
