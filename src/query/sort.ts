import type { Token } from '../domain/token.js'
import { compareCodePoints } from './code-point-order.js'
import { SORT_KEYS, type SortKey } from './filter.js'

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

type Compare = (a: Token, b: Token) => number

// PostgreSQL treats NULL as larger than every value: last in ASC, first in DESC. Putting null at the
// top of the ascending order and reversing it for DESC gives both.
function nullsLargest<T>(get: (token: Token) => T | null, compare: (x: T, y: T) => number): Compare {
  return (a, b) => {
    const x = get(a)
    const y = get(b)
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1
    return compare(x, y)
  }
}

// YYYY-MM-DD strings have a fixed width, so their text order is their date order.
const compareDays = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0)

const ascending = {
  id: (a, b) => a.id - b.id,
  name: (a, b) => compareCodePoints(a.name, b.name),
  createdAt: (a, b) => a.createdAt.getTime() - b.createdAt.getTime(),
  expiresAt: nullsLargest((t) => t.expiresAt, compareDays),
  lastUsedAt: nullsLargest(
    (t) => t.lastUsedAt?.getTime() ?? null,
    (x, y) => x - y,
  ),
} satisfies Record<string, Compare>

// Every key breaks ties on id in its own direction, so the order is total and pages never overlap.
// Descending swaps the operands rather than negating, which would turn an equality into -0.
function orderBy(column: Compare, direction: 'asc' | 'desc'): Compare {
  const compare: Compare = (a, b) => column(a, b) || ascending.id(a, b)
  return direction === 'asc' ? compare : (a, b) => compare(b, a)
}

const COMPARATORS: Readonly<Record<SortKey, Compare>> = {
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
}

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
