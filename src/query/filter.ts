import type { CalendarDate } from '../domain/calendar.js'
import type { ResourceRef } from '../domain/resource.js'
import type { UserId } from '../domain/user-id.js'

/**
 * The list filters, each applied only when present. Semantics (GitLab's, see docs/filters.md):
 * `created*`/`lastUsed*` are inclusive and a `null` `lastUsedAt` never matches them; `expiresBefore` is
 * strict, `expiresAfter` inclusive, and a `null` `expiresAt` matches neither; `state` is evaluated at
 * the query's `now` (`inactive` = revoked OR expired); `search` is GitLab's fuzzy name search.
 *
 * @example
 * ```ts
 * import type { TokenFilter } from 'patkit/store'
 * const filter: TokenFilter = { userId: 2, state: 'active', search: 'deploy' }
 * ```
 */
export interface TokenFilter {
  /** Only this user's tokens. */
  readonly userId?: UserId
  /**
   * Only tokens of this project's or group's bots (users with `bot: true` that are members of it), as
   * GitLab's resource access token list. Resolved by the store (one with `resources`), never by the
   * row predicate.
   */
  readonly resource?: ResourceRef
  /** Leave impersonation tokens out (what a non-admin's list does). */
  readonly excludeImpersonation?: boolean
  /** Only impersonation tokens (what the users API's impersonation token list does). */
  readonly impersonationOnly?: boolean
  readonly createdAfter?: Date
  readonly createdBefore?: Date
  readonly lastUsedAfter?: Date
  readonly lastUsedBefore?: Date
  readonly expiresAfter?: CalendarDate
  readonly expiresBefore?: CalendarDate
  readonly revoked?: boolean
  readonly state?: 'active' | 'inactive'
  readonly search?: string
}

/**
 * GitLab's sort keys for the token list. Unknown keys are ignored (the default, `id_asc`, applies).
 * GitLab's `updated_*` keys are left out: patkit tokens carry no `updated_at`.
 *
 * @example
 * ```ts
 * import { SORT_KEYS } from 'patkit/store'
 * SORT_KEYS.includes('created_desc') // true
 * ```
 */
export const SORT_KEYS = [
  'id_asc',
  'id_desc',
  'name_asc',
  'name_desc',
  'created_asc',
  'created_desc',
  'created_at_asc',
  'created_at_desc',
  'created_date',
  'expires_asc',
  'expires_desc',
  'last_used_asc',
  'last_used_desc',
] as const

/**
 * One of {@link SORT_KEYS}.
 *
 * @example
 * ```ts
 * import type { SortKey } from 'patkit/store'
 * const sort: SortKey = 'name_asc'
 * ```
 */
export type SortKey = (typeof SORT_KEYS)[number]

/**
 * One page of a list: 1-based `page`, `perPage` between 1 and 100.
 *
 * @example
 * ```ts
 * import type { PageRequest } from 'patkit/store'
 * const page: PageRequest = { page: 2, perPage: 20 }
 * ```
 */
export interface PageRequest {
  readonly page: number
  readonly perPage: number
}

/**
 * Everything a store needs to answer a list: the filter, the order, the page, and the instant at
 * which `state` is evaluated.
 *
 * @example
 * ```ts
 * import type { ListQuery } from 'patkit/store'
 * const q: ListQuery = { filter: { userId: 2 }, sort: 'id_asc', page: { page: 1, perPage: 20 }, now: new Date() }
 * ```
 */
export interface ListQuery {
  readonly filter: TokenFilter
  readonly sort: SortKey
  readonly page: PageRequest
  readonly now: Date
}
