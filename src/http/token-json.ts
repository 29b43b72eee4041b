import { type CalendarDate, startOfUtcDay } from '../domain/calendar.js'
import type { Token } from '../domain/token.js'

// Every answer renders `active`, and parsing the expiry day is a noticeable part of a `GET /self`, so
// the start of each day is remembered (a pure function of the day; bounded, as days keep coming).
const DAY_CACHE_LIMIT = 4096
const dayStarts = new Map<CalendarDate, number>()

/** `isActive(token, now)`, with the start of the expiry day remembered. */
function activeAt(token: Token, now: Date): boolean {
  if (token.revoked) return false
  if (token.expiresAt === null) return true
  let start = dayStarts.get(token.expiresAt)
  if (start === undefined) {
    if (dayStarts.size >= DAY_CACHE_LIMIT) dayStarts.clear()
    start = startOfUtcDay(token.expiresAt).getTime()
    dayStarts.set(token.expiresAt, start)
  }
  // isExpired: expired from 00:00 UTC of the expiry day on.
  return !(start <= now.getTime())
}

/**
 * GitLab's `PersonalAccessToken` entity, field for field and in GitLab's order.
 *
 * @example
 * ```ts
 * import type { TokenJson } from 'patkit/http'
 * declare const body: TokenJson
 * body.expires_at // '2030-01-01' or null
 * ```
 */
export interface TokenJson {
  readonly id: number
  readonly name: string
  readonly revoked: boolean
  readonly created_at: string
  readonly description: string | null
  readonly scopes: readonly string[]
  readonly user_id: number
  readonly last_used_at: string | null
  readonly active: boolean
  readonly expires_at: string | null
}

/**
 * The JSON of a token at an instant (`active` depends on it). The digest never leaves.
 *
 * @example
 * ```ts
 * import { tokenJson } from 'patkit/http'
 * JSON.stringify(tokenJson(token, new Date()))
 * ```
 */
export function tokenJson(token: Token, now: Date): TokenJson {
  return {
    id: token.id,
    name: token.name,
    revoked: token.revoked,
    created_at: token.createdAt.toISOString(),
    description: token.description,
    scopes: token.scopes,
    user_id: token.userId,
    last_used_at: token.lastUsedAt === null ? null : token.lastUsedAt.toISOString(),
    active: activeAt(token, now),
    expires_at: token.expiresAt,
  }
}
