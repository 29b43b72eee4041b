import { isActive, type Token } from '../domain/token.js'
import type { TokenFilter } from './filter.js'
import { type InstantReader, TOKEN_INSTANTS } from './instants.js'
import { parseSearch, searchMatcher } from './search.js'

/**
 * The fields a filter reads, whatever object holds them: a {@link Token}, or a store's own row. Instants
 * are read through an {@link InstantReader}, since a store may keep them as epoch milliseconds.
 */
export type Filterable = Pick<Token, 'userId' | 'impersonation' | 'expiresAt' | 'revoked' | 'name'>

/**
 * The one in-memory evaluator of a {@link TokenFilter}, over any holder of the filtered fields: a
 * store that keeps rows of its own (the memory store) filters them without building a `Token` for
 * each. {@link filterPredicate} is the same rule over tokens.
 */
export function predicateOver<T extends Filterable>(
  filter: TokenFilter,
  now: Date,
  instants: InstantReader<T>,
): (item: T) => boolean {
  const search = filter.search === undefined ? undefined : searchMatcher(parseSearch(filter.search))
  const time = (at: Date | undefined): number | undefined => at?.getTime()
  const createdAfter = time(filter.createdAfter)
  const createdBefore = time(filter.createdBefore)
  const lastUsedAfter = time(filter.lastUsedAfter)
  const lastUsedBefore = time(filter.lastUsedBefore)
  const { expiresAfter, expiresBefore } = filter
  const readsCreated = createdAfter !== undefined || createdBefore !== undefined
  const readsLastUsed = lastUsedAfter !== undefined || lastUsedBefore !== undefined
  return (item) => {
    if (filter.userId !== undefined && item.userId !== filter.userId) return false
    if (filter.excludeImpersonation === true && item.impersonation) return false
    if (filter.impersonationOnly === true && !item.impersonation) return false
    if (readsCreated) {
      const created = instants.createdAt(item)
      if (createdAfter !== undefined && created < createdAfter) return false
      if (createdBefore !== undefined && created > createdBefore) return false
    }
    if (readsLastUsed) {
      // As in SQL, a comparison with a null last_used_at is never true, whichever the direction.
      const lastUsed = instants.lastUsedAt(item)
      if (lastUsedAfter !== undefined && (lastUsed === null || lastUsed < lastUsedAfter)) return false
      if (lastUsedBefore !== undefined && (lastUsed === null || lastUsed > lastUsedBefore)) return false
    }
    // Calendar days are fixed-width YYYY-MM-DD, so comparing the strings compares the days.
    const expires = item.expiresAt
    if (expiresAfter !== undefined && (expires === null || expires < expiresAfter)) return false
    if (expiresBefore !== undefined && (expires === null || expires >= expiresBefore)) return false
    if (filter.revoked !== undefined && item.revoked !== filter.revoked) return false
    if (filter.state !== undefined) {
      // inactive is "revoked OR expired", which is exactly "not active".
      const active = isActive(item, now)
      if (active !== (filter.state === 'active')) return false
    }
    return search === undefined || search(item.name)
  }
}

/**
 * The one in-memory evaluator of a {@link TokenFilter}, prepared once for many tokens (the search query
 * is parsed once). Stores that cannot compile a filter use it; {@link matchesFilter} is the same rule
 * for a single token.
 *
 * @example
 * ```ts
 * import type { Token } from 'patkit'
 * import { filterPredicate } from 'patkit/store'
 * declare const tokens: Token[]
 * const active = tokens.filter(filterPredicate({ state: 'active' }, new Date('2026-01-28T10:00:00Z')))
 * ```
 */
export function filterPredicate(filter: TokenFilter, now: Date): (token: Token) => boolean {
  return predicateOver(filter, now, TOKEN_INSTANTS)
}

/**
 * Whether a token passes every filter that is present, `state` being evaluated at `now`:
 * `createdAfter`/`createdBefore`/`lastUsedAfter`/`lastUsedBefore` are inclusive and a `null`
 * `lastUsedAt` matches none of them; `expiresAfter` is inclusive, `expiresBefore` strict, and a `null`
 * `expiresAt` matches neither; `inactive` is revoked or expired; `search` is GitLab's fuzzy name search.
 *
 * @example
 * ```ts
 * import type { Token } from 'patkit'
 * import { matchesFilter } from 'patkit/store'
 * declare const token: Token
 * matchesFilter(token, { revoked: false, expiresBefore: '2027-01-01' }, new Date('2026-01-28T10:00:00Z'))
 * ```
 */
export function matchesFilter(token: Token, filter: TokenFilter, now: Date): boolean {
  return filterPredicate(filter, now)(token)
}
