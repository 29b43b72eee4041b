import { isActive, type Token } from '../domain/token.js'
import type { TokenFilter } from './filter.js'
import { matchesSearch, parseSearch } from './search.js'

/**
 * The one in-memory evaluator of a {@link TokenFilter}, prepared once for many tokens (the search query
 * is parsed once). Stores that cannot compile a filter use it; {@link matchesFilter} is the same rule
 * for a single token.
 *
 * @example
 * ```ts
 * import { filterPredicate } from 'patkit'
 * declare const tokens: Token[]
 * const active = tokens.filter(filterPredicate({ state: 'active' }, new Date('2026-01-28T10:00:00Z')))
 * ```
 */
export function filterPredicate(filter: TokenFilter, now: Date): (token: Token) => boolean {
  const search = filter.search === undefined ? undefined : parseSearch(filter.search)
  const time = (at: Date | undefined): number | undefined => at?.getTime()
  const createdAfter = time(filter.createdAfter)
  const createdBefore = time(filter.createdBefore)
  const lastUsedAfter = time(filter.lastUsedAfter)
  const lastUsedBefore = time(filter.lastUsedBefore)
  const { expiresAfter, expiresBefore } = filter
  return (token) => {
    if (filter.userId !== undefined && token.userId !== filter.userId) return false
    if (filter.excludeImpersonation === true && token.impersonation) return false
    const created = token.createdAt.getTime()
    if (createdAfter !== undefined && created < createdAfter) return false
    if (createdBefore !== undefined && created > createdBefore) return false
    // As in SQL, a comparison with a null last_used_at is never true, whichever the direction.
    const lastUsed = token.lastUsedAt?.getTime()
    if (lastUsedAfter !== undefined && (lastUsed === undefined || lastUsed < lastUsedAfter)) return false
    if (lastUsedBefore !== undefined && (lastUsed === undefined || lastUsed > lastUsedBefore)) return false
    // Calendar days are fixed-width YYYY-MM-DD, so comparing the strings compares the days.
    const expires = token.expiresAt
    if (expiresAfter !== undefined && (expires === null || expires < expiresAfter)) return false
    if (expiresBefore !== undefined && (expires === null || expires >= expiresBefore)) return false
    if (filter.revoked !== undefined && token.revoked !== filter.revoked) return false
    // inactive is "revoked OR expired", which is exactly "not active".
    if (filter.state !== undefined && isActive(token, now) !== (filter.state === 'active')) return false
    return search === undefined || matchesSearch(token.name, search)
  }
}

/**
 * Whether a token passes every filter that is present, `state` being evaluated at `now`:
 * `createdAfter`/`createdBefore`/`lastUsedAfter`/`lastUsedBefore` are inclusive and a `null`
 * `lastUsedAt` matches none of them; `expiresAfter` is inclusive, `expiresBefore` strict, and a `null`
 * `expiresAt` matches neither; `inactive` is revoked or expired; `search` is GitLab's fuzzy name search.
 *
 * @example
 * ```ts
 * import { matchesFilter } from 'patkit'
 * declare const token: Token
 * matchesFilter(token, { revoked: false, expiresBefore: '2027-01-01' }, new Date('2026-01-28T10:00:00Z'))
 * ```
 */
export function matchesFilter(token: Token, filter: TokenFilter, now: Date): boolean {
  return filterPredicate(filter, now)(token)
}
