import { type OrderByModifiersCallbackExpression, type RawBuilder, sql } from 'kysely'
import type { SortKey } from '../query/filter.js'
import { SORT_ORDERS, type SortDirection, type SortField, type SortOrder } from '../query/sort-order.js'
import type { SqlDialect } from './dialect/sql-dialect.js'

// Where each sortable field lives in the tokens table. What a key means (field, direction, nulls,
// tie-break) is not written here: it is `SORT_ORDERS`, the declaration the memory store sorts by.
const COLUMNS: Readonly<Record<SortField, string>> = {
  id: 'tokens.id',
  name: 'tokens.name',
  createdAt: 'tokens.created_at',
  expiresAt: 'tokens.expires_at',
  lastUsedAt: 'tokens.last_used_at',
}

/**
 * One `ORDER BY` key: an expression, its direction, and where NULLs go when the dialect says so itself.
 */
interface OrderKey {
  readonly expression: RawBuilder<unknown>
  readonly direction: SortDirection
  readonly nulls: 'first' | 'last' | null
}

// One field's keys: `NULLS FIRST/LAST` where the dialect has it, else a leading `column IS NULL` key
// (0 or 1: ascending puts the NULLs last, descending first). Names order by code point through the
// dialect's binary comparison.
function fieldKeys(
  dialect: SqlDialect,
  field: SortField,
  direction: SortDirection,
  nulls: SortOrder['nulls'],
): readonly OrderKey[] {
  const ref = COLUMNS[field]
  const expression = field === 'name' ? dialect.nameOrderKey(ref) : sql`${sql.ref(ref)}`
  if (nulls === null || dialect.supportsNullsOrdering) return [{ expression, direction, nulls }]
  const nullKey: OrderKey = {
    expression: sql`${sql.ref(ref)} is null`,
    direction: nulls === 'last' ? 'asc' : 'desc',
    nulls: null,
  }
  return [nullKey, { expression, direction, nulls: null }]
}

/**
 * The `ORDER BY` keys of a sort, built from its declared meaning (`SORT_ORDERS`, which `compareTokens`
 * reads too): the field in its direction with its NULL placement, then the tie-break, so the order is
 * total and pages never overlap or skip.
 */
export function orderKeys(dialect: SqlDialect, sort: SortKey): readonly OrderKey[] {
  const order = SORT_ORDERS[sort]
  const keys = fieldKeys(dialect, order.field, order.direction, order.nulls)
  if (order.tieBreak === null) return keys
  return [...keys, ...fieldKeys(dialect, order.tieBreak.field, order.tieBreak.direction, null)]
}

/**
 * The direction and NULL placement of an {@link OrderKey}, as Kysely's `orderBy` takes them: every
 * paged read orders by `page.orderBy(key.expression, directed(key))` for each of its `orderKeys`.
 */
export function directed(key: OrderKey): OrderByModifiersCallbackExpression {
  return (ob) => {
    const ordered = key.direction === 'asc' ? ob.asc() : ob.desc()
    if (key.nulls === null) return ordered
    return key.nulls === 'first' ? ordered.nullsFirst() : ordered.nullsLast()
  }
}
