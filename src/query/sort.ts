import type { Token } from '../domain/token.js'
import { compareCodePoints } from './code-point-order.js'
import { SORT_KEYS, type SortKey } from './filter.js'
import { type InstantReader, TOKEN_INSTANTS } from './instants.js'
import { SORT_ORDERS, type SortDirection, type SortField, type SortOrder } from './sort-order.js'

/** The order of a list without a (known) `sort`: GitLab adds `ORDER BY id` when none is given. */
export const DEFAULT_SORT: SortKey = 'id_asc'

/** Whether a string is one of the {@link SortKey}s (case-sensitive, as GitLab's lookup is). */
export function isSortKey(value: string): value is SortKey {
  return (SORT_KEYS as readonly string[]).includes(value)
}

/** The fields a sort reads besides the instants (read through an {@link InstantReader}). */
export type Sortable = Pick<Token, 'id' | 'name' | 'expiresAt'>

type Compare<T> = (a: T, b: T) => number

/** A comparator for every sort key, as {@link comparatorsOver} builds them. */
export type Comparators<T> = Readonly<Record<SortKey, Compare<T>>>

// YYYY-MM-DD strings have a fixed width, so their text order is their date order.
const compareDays = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0)

// A nullable field's ascending order with its nulls as the largest values or the smallest.
function withNulls<T, V>(
  get: (item: T) => V | null,
  compare: (x: V, y: V) => number,
  nullsLargest: boolean,
): Compare<T> {
  const nullSide = nullsLargest ? 1 : -1
  return (a, b) => {
    const x = get(a)
    const y = get(b)
    if (x === null || y === null) return x === y ? 0 : x === null ? nullSide : -nullSide
    return compare(x, y)
  }
}

// Descending swaps the operands rather than negating, which would turn an equality into -0.
function oriented<T>(compare: Compare<T>, direction: SortDirection): Compare<T> {
  return direction === 'asc' ? compare : (a, b) => compare(b, a)
}

/**
 * The comparator of every sort key over any holder of the sorted fields: a store that keeps rows of
 * its own (the memory store) sorts them without building a `Token` for each. {@link compareTokens} is
 * the same order over tokens. Each comparator is built from the key's declared meaning
 * (`SORT_ORDERS`), the one the SQL store's `ORDER BY` is built from too.
 */
export function comparatorsOver<T extends Sortable>(instants: InstantReader<T>): Comparators<T> {
  // Each field's ascending order, one function each (a list of a million tokens sorts through these
  // some twenty million times). Where nulls go is the declaration's: last ascending is largest.
  const ascending = (field: SortField, nullsLargest: boolean): Compare<T> => {
    switch (field) {
      case 'id':
        return (a, b) => a.id - b.id
      case 'name':
        return (a, b) => compareCodePoints(a.name, b.name)
      case 'createdAt':
        return (a, b) => instants.createdAt(a) - instants.createdAt(b)
      case 'expiresAt':
        return withNulls((t: T) => t.expiresAt, compareDays, nullsLargest)
      case 'lastUsedAt':
        return withNulls(instants.lastUsedAt, (x: number, y: number) => x - y, nullsLargest)
    }
  }
  const comparatorOf = (order: SortOrder): Compare<T> => {
    const column = ascending(order.field, (order.nulls === 'last') === (order.direction === 'asc'))
    if (order.tieBreak === null) return oriented(column, order.direction)
    const tie = ascending(order.tieBreak.field, true)
    // Every key breaks ties in its own direction: one swap then serves both comparisons.
    if (order.tieBreak.direction === order.direction) {
      return oriented((a, b) => column(a, b) || tie(a, b), order.direction)
    }
    const primary = oriented(column, order.direction)
    const secondary = oriented(tie, order.tieBreak.direction)
    return (a, b) => primary(a, b) || secondary(a, b)
  }
  const comparators = {} as Record<SortKey, Compare<T>>
  for (const key of SORT_KEYS) comparators[key] = comparatorOf(SORT_ORDERS[key])
  return Object.freeze(comparators)
}

const COMPARATORS = comparatorsOver(TOKEN_INSTANTS)

/**
 * The comparator of a sort key, for `Array.prototype.sort`, as `SORT_ORDERS` declares it: each key
 * orders by its column, then by id in the same direction; `null` `expiresAt`/`lastUsedAt` come last
 * ascending and first descending (as in PostgreSQL); names compare by code point
 * ({@link compareCodePoints}). `created_date` is `created_desc`.
 *
 * @example
 * ```ts
 * import type { Token } from 'patkit'
 * import { compareTokens } from 'patkit/store'
 * declare const tokens: Token[]
 * const newestFirst = [...tokens].sort(compareTokens('created_desc'))
 * ```
 */
export function compareTokens(sort: SortKey): (a: Token, b: Token) => number {
  return COMPARATORS[sort]
}
