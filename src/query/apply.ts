import type { Token } from '../domain/token.js'
import type { ListQuery } from './filter.js'
import { pageOffset } from './pagination.js'
import { filterPredicate } from './predicate.js'
import { compareTokens } from './sort.js'

/**
 * Answers a list query over tokens held in memory: keeps the tokens matching the filter at `query.now`,
 * orders them by `query.sort`, and returns the requested page with the number of matches.
 *
 * @example
 * ```ts
 * import { applyListQuery } from 'patkit'
 * declare const tokens: Token[]
 * const { items, total } = applyListQuery(tokens, {
 *   filter: { userId: 2, state: 'active' },
 *   sort: 'created_desc',
 *   page: { page: 1, perPage: 20 },
 *   now: new Date('2026-01-28T10:00:00Z'),
 * })
 * ```
 */
export function applyListQuery(tokens: Iterable<Token>, query: ListQuery): { items: Token[]; total: number } {
  const matches = Array.from(tokens).filter(filterPredicate(query.filter, query.now))
  matches.sort(compareTokens(query.sort))
  const offset = pageOffset(query.page)
  return { items: matches.slice(offset, offset + query.page.perPage), total: matches.length }
}
