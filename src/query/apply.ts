import type { Token } from '../domain/token.js'
import type { ListQuery } from './filter.js'
import { type InstantReader, TOKEN_INSTANTS } from './instants.js'
import { pageOffset } from './pagination.js'
import { type Filterable, predicateOver } from './predicate.js'
import { type Comparators, comparatorsOver, type Sortable } from './sort.js'

/**
 * {@link applyListQuery} over any holder of the filtered and sorted fields, with its comparators (from
 * {@link comparatorsOver} on the same reader, built once by the caller). A store that keeps rows of its
 * own pages them this way and builds tokens for the page alone.
 */
export function listOver<T extends Filterable & Sortable>(
  items: Iterable<T>,
  query: ListQuery,
  instants: InstantReader<T>,
  order: Comparators<T>,
): { items: T[]; total: number } {
  const keep = predicateOver(query.filter, query.now, instants)
  const matches: T[] = []
  for (const item of items) if (keep(item)) matches.push(item)
  matches.sort(order[query.sort])
  const offset = pageOffset(query.page)
  return { items: matches.slice(offset, offset + query.page.perPage), total: matches.length }
}

const TOKEN_ORDER = comparatorsOver(TOKEN_INSTANTS)

/**
 * Answers a list query over tokens held in memory: keeps the tokens matching the filter at `query.now`,
 * orders them by `query.sort`, and returns the requested page with the number of matches.
 *
 * @example
 * ```ts
 * import type { Token } from 'patkit'
 * import { applyListQuery } from 'patkit/store'
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
  return listOver(tokens, query, TOKEN_INSTANTS, TOKEN_ORDER)
}
