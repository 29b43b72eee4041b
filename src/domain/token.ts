import { type CalendarDate, startOfUtcDay } from './calendar.js'
import type { GranularScope } from './granular-scope.js'
import type { UserId } from './user-id.js'

/**
 * A personal access token as patkit stores it. The secret itself is never kept: only its keyed
 * digest. `familyId` is the id of the first token of the rotation chain; `previousId` the token this
 * one replaced.
 *
 * @example
 * ```ts
 * import { type Token, isActive } from 'patkit'
 * declare const token: Token
 * isActive(token, new Date())
 * ```
 */
export interface Token {
  readonly id: number
  /** A number, or a string with `userIdType: 'string'`. */
  readonly userId: UserId
  readonly name: string
  readonly description: string | null
  readonly scopes: readonly string[]
  /** UTC, millisecond precision. */
  readonly createdAt: Date
  readonly lastUsedAt: Date | null
  /**
   * The last client IPs that used the token, oldest first, at most five (GitLab's `last_used_ips`);
   * absent when none is recorded.
   */
  readonly lastUsedIps?: readonly string[]
  /** The first day on which the token no longer works; `null` never expires. */
  readonly expiresAt: CalendarDate | null
  readonly revoked: boolean
  readonly impersonation: boolean
  readonly previousId: number | null
  readonly familyId: number
  /** HMAC-SHA-256 of the secret, keyed by the authority's pepper (base64url). */
  readonly digest: string
  /**
   * A fine-grained token's scopes (GitLab's granular scopes); absent on a legacy token, whose rights are
   * its `scopes`. A token is fine-grained exactly when this is present.
   */
  readonly granularScopes?: readonly GranularScope[]
}

/**
 * A token not yet stored: the store assigns `id`, and `familyId` when it is `null` (a first
 * generation token is its own family).
 *
 * @example
 * ```ts
 * import type { TokenDraft } from 'patkit/store'
 * declare const draft: TokenDraft
 * draft.familyId // null for a new token, the family's id for a rotation successor
 * ```
 */
export interface TokenDraft extends Omit<Token, 'id' | 'familyId'> {
  readonly familyId: number | null
}

/**
 * Whether the token is expired at an instant: from 00:00:00.000 UTC of its `expiresAt` day on.
 *
 * @example
 * ```ts
 * import { isExpired } from 'patkit'
 * isExpired({ expiresAt: '2030-01-01' }, new Date('2029-12-31T23:59:59.999Z')) // false
 * isExpired({ expiresAt: '2030-01-01' }, new Date('2030-01-01T00:00:00.000Z')) // true
 * ```
 */
export function isExpired(token: Pick<Token, 'expiresAt'>, at: Date): boolean {
  return token.expiresAt !== null && dayStart(token.expiresAt) <= at.getTime()
}

// Parsing the expiry day is the costly part of isExpired, which every authentication, rendered token
// and `state` filter asks. Tokens share few expiry days, so each day's start is remembered: a memo of a
// pure function, bounded so an endless variety of days cannot grow it.
const REMEMBERED_DAYS = 4096
const dayStarts = new Map<CalendarDate, number>()

function dayStart(day: CalendarDate): number {
  let start = dayStarts.get(day)
  if (start === undefined) {
    if (dayStarts.size >= REMEMBERED_DAYS) dayStarts.clear()
    start = startOfUtcDay(day).getTime()
    dayStarts.set(day, start)
  }
  return start
}

/**
 * Whether the token can authenticate at an instant: neither revoked nor expired.
 *
 * @example
 * ```ts
 * import { isActive } from 'patkit'
 * isActive({ revoked: false, expiresAt: null }, new Date()) // true
 * ```
 */
export function isActive(token: Pick<Token, 'revoked' | 'expiresAt'>, at: Date): boolean {
  return !token.revoked && !isExpired(token, at)
}
