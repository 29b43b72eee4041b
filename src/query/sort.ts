import type { Token } from '../domain/token.js'
import { compareCodePoints } from './code-point-order.js'
import { SORT_KEYS, type SortKey } from './filter.js'
import { type InstantReader, TOKEN_INSTANTS } from './instants.js'
import { SORT_ORDERS, type SortDirection, type SortField, type SortOrder } from './sort-order.js'

/**
 * The order of a list without a (known) `sort`: GitLab adds `ORDER BY id` when none is given.
 *
 * @example
 * ```ts
 * import { DEFAULT_SORT } from './sort.js'
 * DEFAULT_SORT // 'id_asc'
 * ```
 */
export const DEFAULT_SORT: SortKey = 'id_asc'

/**
 * Whether a string is one of the {@link SortKey}s (case-sensitive, as GitLab's lookup is).
 *
 * @example
 * ```ts
 * import { isSortKey } from './sort.js'
 * isSortKey('name_desc') // true
 * isSortKey('NAME_DESC') // false
 * ```
 */
export function isSortKey(value: string): value is SortKey {
  return (SORT_KEYS as readonly string[]).includes(value)
}

/**
 * The fields a sort reads besides the instants (read through an {@link InstantReader}).
 *
 * @example
 * ```ts
 * import type { Sortable } from './sort.js'
 *
 * const row: Sortable = { id: 1, name: 'ci', expiresAt: null }
 * ```
 */
export type Sortable = Pick<Token, 'id' | 'name' | 'expiresAt'>

type Compare<T> = (a: T, b: T) => number

/**
 * A comparator for every sort key, as {@link comparatorsOver} builds them.
 *
 * @example
 * ```ts
 * import type { Token } from 'patkit'
 * import type { Comparators } from './sort.js'
 * declare const tokens: readonly Token[]
 *
 * declare const order: Comparators<Token>
 * tokens.sort(order.name_asc)
 * ```
 */
export type Comparators<T> = Readonly<Record<SortKey, Compare<T>>>

// YYYY-MM-DD strings have a fixed width, so their text order is their date order.
const compareDays = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0)
const subtract = (x: number, y: number): number => x - y

// One field in one direction, nulls where the order puts them. Descending swaps the operands rather
// than negating, which would turn an equality into -0.
function directed<T, V>(
  get: (item: T) => V | null,
  compare: (x: V, y: V) => number,
  direction: SortDirection,
  nulls: SortOrder['nulls'],
): Compare<T> {
  const nullSide = nulls === 'first' ? -1 : 1
  const present: (x: V, y: V) => number = direction === 'asc' ? compare : (x, y) => compare(y, x)
  return (a, b) => {
    const x = get(a)
    const y = get(b)
    if (x === null || y === null) return x === y ? 0 : x === null ? nullSide : -nullSide
    return present(x, y)
  }
}

/**
 * The comparator of every sort key over any holder of the sorted fields: a store that keeps rows of
 * its own (the memory store) sorts them without building a `Token` for each. {@link compareTokens} is
 * the same order over tokens. Each comparator is built from the key's declared meaning
 * (`SORT_ORDERS`), the one the SQL store's `ORDER BY` is built from too.
 *
 * @example
 * ```ts
 * import { comparatorsOver } from './sort.js'
 *
 * const byKey = comparatorsOver<Row>({ createdAt: (r) => r.createdAt, lastUsedAt: (r) => r.lastUsedAt })
 * rows.sort(byKey.created_desc)
 * ```
 */
export function comparatorsOver<T extends Sortable>(instants: InstantReader<T>): Comparators<T> {
  const field = (name: SortField, direction: SortDirection, nulls: SortOrder['nulls']): Compare<T> => {
    switch (name) {
      case 'id':
        return directed((t: T) => t.id, subtract, direction, nulls)
      case 'name':
        return directed((t: T) => t.name, compareCodePoints, direction, nulls)
      case 'createdAt':
        return directed(instants.createdAt, subtract, direction, nulls)
      case 'expiresAt':
        return directed((t: T) => t.expiresAt, compareDays, direction, nulls)
      case 'lastUsedAt':
        return directed(instants.lastUsedAt, subtract, direction, nulls)
    }
  }
  const comparatorOf = (order: SortOrder): Compare<T> => {
    const primary = field(order.field, order.direction, order.nulls)
    if (order.tieBreak === null) return primary
    const tie = field(order.tieBreak.field, order.tieBreak.direction, null)
    return (a, b) => primary(a, b) || tie(a, b)
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
