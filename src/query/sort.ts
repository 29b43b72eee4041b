import type { Token } from '../domain/token.js'
import { compareCodePoints } from './code-point-order.js'
import { SORT_KEYS, type SortKey } from './filter.js'
import { type InstantReader, TOKEN_INSTANTS } from './instants.js'

/**
 * The order of a list without a (known) `sort`: GitLab adds `ORDER BY id` when none is given.
 *
 * @example
 * ```ts
 * import { DEFAULT_SORT } from 'patkit'
 * DEFAULT_SORT // 'id_asc'
 * ```
 */
export const DEFAULT_SORT: SortKey = 'id_asc'

/**
 * Whether a string is one of the {@link SortKey}s (case-sensitive, as GitLab's lookup is).
 *
 * @example
 * ```ts
 * import { isSortKey } from 'patkit'
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
 * declare const order: Comparators<Token>
 * tokens.sort(order.name_asc)
 * ```
 */
export type Comparators<T> = Readonly<Record<SortKey, Compare<T>>>

// PostgreSQL treats NULL as larger than every value: last in ASC, first in DESC. Putting null at the
// top of the ascending order and reversing it for DESC gives both.
function nullsLargest<T, V>(get: (item: T) => V | null, compare: (x: V, y: V) => number): Compare<T> {
  return (a, b) => {
    const x = get(a)
    const y = get(b)
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1
    return compare(x, y)
  }
}

// YYYY-MM-DD strings have a fixed width, so their text order is their date order.
const compareDays = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0)

/**
 * The comparator of every sort key over any holder of the sorted fields: a store that keeps rows of
 * its own (the memory store) sorts them without building a `Token` for each. {@link compareTokens} is
 * the same order over tokens.
 *
 * @example
 * ```ts
 * const byKey = comparatorsOver<Row>({ createdAt: (r) => r.createdAt, lastUsedAt: (r) => r.lastUsedAt })
 * rows.sort(byKey.created_desc)
 * ```
 */
export function comparatorsOver<T extends Sortable>(instants: InstantReader<T>): Comparators<T> {
  const ascending = {
    id: (a: T, b: T) => a.id - b.id,
    name: (a: T, b: T) => compareCodePoints(a.name, b.name),
    createdAt: (a: T, b: T) => instants.createdAt(a) - instants.createdAt(b),
    expiresAt: nullsLargest((t: T) => t.expiresAt, compareDays),
    lastUsedAt: nullsLargest(instants.lastUsedAt, (x: number, y: number) => x - y),
  }
  // Every key breaks ties on id in its own direction, so the order is total and pages never overlap.
  // Descending swaps the operands rather than negating, which would turn an equality into -0.
  const orderBy = (column: Compare<T>, direction: 'asc' | 'desc'): Compare<T> => {
    const compare: Compare<T> = (a, b) => column(a, b) || ascending.id(a, b)
    return direction === 'asc' ? compare : (a, b) => compare(b, a)
  }
  return Object.freeze({
    id_asc: orderBy(ascending.id, 'asc'),
    id_desc: orderBy(ascending.id, 'desc'),
    name_asc: orderBy(ascending.name, 'asc'),
    name_desc: orderBy(ascending.name, 'desc'),
    created_asc: orderBy(ascending.createdAt, 'asc'),
    created_at_asc: orderBy(ascending.createdAt, 'asc'),
    created_desc: orderBy(ascending.createdAt, 'desc'),
    created_at_desc: orderBy(ascending.createdAt, 'desc'),
    created_date: orderBy(ascending.createdAt, 'desc'),
    expires_asc: orderBy(ascending.expiresAt, 'asc'),
    expires_desc: orderBy(ascending.expiresAt, 'desc'),
    last_used_asc: orderBy(ascending.lastUsedAt, 'asc'),
    last_used_desc: orderBy(ascending.lastUsedAt, 'desc'),
  })
}

const COMPARATORS = comparatorsOver(TOKEN_INSTANTS)

/**
 * The comparator of a sort key, for `Array.prototype.sort`. Each key orders by its column, then by id in
 * the same direction; `null` `expiresAt`/`lastUsedAt` come last ascending and first descending (as in
 * PostgreSQL); names compare by code point ({@link compareCodePoints}). `created_date` is
 * `created_desc`.
 *
 * @example
 * ```ts
 * import { compareTokens } from 'patkit'
 * declare const tokens: Token[]
 * const newestFirst = [...tokens].sort(compareTokens('created_desc'))
 * ```
 */
export function compareTokens(sort: SortKey): (a: Token, b: Token) => number {
  return COMPARATORS[sort]
}
