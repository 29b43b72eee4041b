import { err, ok, type Result } from 'neverthrow'
import { addCalendarDays, type CalendarDate, utcDay } from './calendar.js'
import type { ErrorOf } from './errors.js'

/** Days a rotated token lives when the request names no expiry (GitLab: one week). */
export const ROTATION_DEFAULT_DAYS = 7

/** GitLab's maximum token lifetime in days. */
export const DEFAULT_MAX_LIFETIME_DAYS = 365

/** The instance's expiry settings (GitLab's `require_personal_access_token_expiry` and max lifetime). */
export interface ExpiryPolicy {
  /** When true a token must expire, and at most `maxLifetimeDays` after today. */
  readonly requireExpiry: boolean
  readonly maxLifetimeDays: number
  /** Days a rotated token lives when the rotation names no expiry; GitLab's week when absent. */
  readonly rotationDefaultDays?: number
}

/**
 * How one way of making a token treats `expires_at`, read together with the instance's
 * {@link ExpiryPolicy}. Each token kind, and rotation, names its rule.
 */
export interface ExpiryRule {
  /**
   * The day an absent `expires_at` gives when expiry is required (never otherwise): today + the
   * maximum lifetime (GitLab's creation), or today + the rotation default (capped by the maximum).
   */
  readonly absent: 'max_lifetime' | 'rotation_default'
  /**
   * Today or an earlier day: a token born inactive (GitLab's model takes it), or refused with
   * "Expiration date must be after <today>".
   */
  readonly past: 'inactive' | 'refused'
  /** Whether a requested day beyond today + `maxLifetimeDays` is refused when expiry is required. */
  readonly bounded: boolean
  /** Whether an explicit `null` means never, even when expiry is required (seeds and fixtures). */
  readonly never: boolean
}

/** GitLab's creation (`POST /users/:id/personal_access_tokens`, impersonation tokens). */
export const CREATION_EXPIRY: ExpiryRule = {
  absent: 'max_lifetime',
  past: 'inactive',
  bounded: true,
  never: false,
}

/** GitLab's rotation: a week by default, a day after today at the earliest. */
export const ROTATION_EXPIRY: ExpiryRule = {
  absent: 'rotation_default',
  past: 'refused',
  bounded: true,
  never: false,
}

/**
 * Decides the `expiresAt` of a new token from the requested day (absent, `null` for never, or a
 * day) under `rule` and the instance's `policy`. GitLab's message names the first refused bound:
 * "Expiration date must be after <today>" or "... must be before <today + maxLifetimeDays>".
 */
export function resolveExpiry(
  requested: CalendarDate | null | undefined,
  now: Date,
  policy: ExpiryPolicy,
  rule: ExpiryRule,
): Result<CalendarDate | null, ErrorOf<'invalid_expiry'>> {
  if (requested === null && rule.never) return ok(null)
  const today = utcDay(now)
  if (requested === undefined || requested === null) {
    if (!policy.requireExpiry) return ok(null)
    const days =
      rule.absent === 'max_lifetime'
        ? policy.maxLifetimeDays
        : (policy.rotationDefaultDays ?? ROTATION_DEFAULT_DAYS)
    return ok(addCalendarDays(today, Math.min(days, policy.maxLifetimeDays)))
  }
  // ISO dates compare correctly as strings.
  if (rule.past === 'refused' && requested <= today) {
    return err({ type: 'invalid_expiry', message: `Expiration date must be after ${today}` })
  }
  const latest = addCalendarDays(today, policy.maxLifetimeDays)
  if (rule.bounded && policy.requireExpiry && requested > latest) {
    return err({ type: 'invalid_expiry', message: `Expiration date must be before ${latest}` })
  }
  return ok(requested)
}
