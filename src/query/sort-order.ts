import type { SortKey } from './filter.js'

/**
 * A token field a list can be ordered by.
 *
 * @example
 * ```ts
 * import type { SortField } from 'patkit/store'
 *
 * const field: SortField = 'lastUsedAt'
 * ```
 */
export type SortField = 'id' | 'name' | 'createdAt' | 'expiresAt' | 'lastUsedAt'

/**
 * A sort direction.
 *
 * @example
 * ```ts
 * import type { SortDirection } from 'patkit/store'
 *
 * const direction: SortDirection = 'desc'
 * ```
 */
export type SortDirection = 'asc' | 'desc'

/**
 * What one sort key means: the field and direction it orders by, where a `null` value of that field
 * goes (`null` for a field that is never null), and the field that breaks ties, in its own direction
 * (`null` when the field is unique).
 *
 * @example
 * ```ts
 * import type { SortOrder } from 'patkit/store'
 *
 * const order: SortOrder = {
 *   field: 'expiresAt', direction: 'asc', nulls: 'last', tieBreak: { field: 'id', direction: 'asc' },
 * }
 * ```
 */
export interface SortOrder {
  readonly field: SortField
  readonly direction: SortDirection
  readonly nulls: 'first' | 'last' | null
  readonly tieBreak: { readonly field: 'id'; readonly direction: SortDirection } | null
}

// PostgreSQL treats NULL as larger than every value (last ascending, first descending), and GitLab
// lists on PostgreSQL: every store follows it.
const NULLABLE: ReadonlySet<SortField> = new Set<SortField>(['expiresAt', 'lastUsedAt'])

function order(field: SortField, direction: SortDirection): SortOrder {
  return Object.freeze({
    field,
    direction,
    nulls: NULLABLE.has(field) ? (direction === 'asc' ? 'last' : 'first') : null,
    // Ties go to id in the key's own direction, so every order is total and pages never overlap.
    tieBreak: field === 'id' ? null : Object.freeze({ field: 'id', direction }),
  })
}

/**
 * The meaning of every sort key, declared once: the memory store's comparators (`comparatorsOver`,
 * `compareTokens`) and the SQL store's `ORDER BY` are both built from it, so they cannot disagree.
 * `created_at_*` are GitLab's aliases of `created_*`, and `created_date` is `created_desc`. Names
 * compare by code point in every store.
 *
 * @example
 * ```ts
 * import { SORT_ORDERS } from 'patkit/store'
 *
 * SORT_ORDERS.last_used_desc // { field: 'lastUsedAt', direction: 'desc', nulls: 'first', tieBreak: { field: 'id', direction: 'desc' } }
 * ```
 */
export const SORT_ORDERS: Readonly<Record<SortKey, SortOrder>> = Object.freeze({
  id_asc: order('id', 'asc'),
  id_desc: order('id', 'desc'),
  name_asc: order('name', 'asc'),
  name_desc: order('name', 'desc'),
  created_asc: order('createdAt', 'asc'),
  created_at_asc: order('createdAt', 'asc'),
  created_desc: order('createdAt', 'desc'),
  created_at_desc: order('createdAt', 'desc'),
  created_date: order('createdAt', 'desc'),
  expires_asc: order('expiresAt', 'asc'),
  expires_desc: order('expiresAt', 'desc'),
  last_used_asc: order('lastUsedAt', 'asc'),
  last_used_desc: order('lastUsedAt', 'desc'),
})
