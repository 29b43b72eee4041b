import { err, ok, type Result } from 'neverthrow'
import { addCalendarDays, type CalendarDate, utcDay } from './calendar.js'
import type { ErrorOf } from './errors.js'

/** Days a rotated token lives when the request names no expiry (GitLab: one week). */
export const ROTATION_DEFAULT_DAYS = 7

/** GitLab's maximum token lifetime in days. */
export const DEFAULT_MAX_LIFETIME_DAYS = 365

/**
 * The instance's expiry rules (GitLab's `require_personal_access_token_expiry` and max lifetime).
 *
 * @example
 * ```ts
 * import type { ExpiryPolicy } from './expiry.js'
 * const policy: ExpiryPolicy = { requireExpiry: true, maxLifetimeDays: 365 }
 * ```
 */
export interface ExpiryPolicy {
  /** When true a token must expire, and at most `maxLifetimeDays` after today. */
  readonly requireExpiry: boolean
  readonly maxLifetimeDays: number
  /**
   * Days a rotated token lives when the rotation names no expiry (the authority's
   * `rotationDefaultDays`); {@link ROTATION_DEFAULT_DAYS} (GitLab's week) when absent.
   */
  readonly rotationDefaultDays?: number
}

/**
 * Decides the `expiresAt` of a new token. Absent: `today + defaultDays`, or `null` when expiry is not
 * required. Present: it must be after today (UTC), unless `allowPast` (token creation, where GitLab's
 * model takes a past date and the token is born inactive), and, when expiry is required, at most
 * `today + maxLifetimeDays`; GitLab's message names that last allowed day.
 *
 * @example
 * ```ts
 * import { resolveExpiry } from './expiry.js'
 * const policy = { requireExpiry: true, maxLifetimeDays: 365 }
 * resolveExpiry(undefined, new Date('2026-01-28T10:00:00Z'), policy, 7) // ok('2026-02-04')
 * resolveExpiry('2027-01-29', new Date('2026-01-28T10:00:00Z'), policy, 7)
 * // err({ type: 'invalid_expiry', message: 'Expiration date must be before 2027-01-28' })
 * ```
 */
export function resolveExpiry(
  requested: CalendarDate | undefined,
  now: Date,
  policy: ExpiryPolicy,
  defaultDays: number,
  allowPast = false,
): Result<CalendarDate | null, ErrorOf<'invalid_expiry'>> {
  const today = utcDay(now)
  if (requested === undefined) {
    return ok(
      policy.requireExpiry ? addCalendarDays(today, Math.min(defaultDays, policy.maxLifetimeDays)) : null,
    )
  }
  // ISO dates compare correctly as strings.
  if (!allowPast && requested <= today) {
    return err({ type: 'invalid_expiry', message: `Expiration date must be after ${today}` })
  }
  const latest = addCalendarDays(today, policy.maxLifetimeDays)
  if (policy.requireExpiry && requested > latest) {
    return err({ type: 'invalid_expiry', message: `Expiration date must be before ${latest}` })
  }
  return ok(requested)
}
