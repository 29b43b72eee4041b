import { type RawBuilder, sql } from 'kysely'
import type { SortKey } from '../query/filter.js'
import type { SqlDialect } from './dialect/sql-dialect.js'

type Direction = 'asc' | 'desc'
type SortColumn = 'id' | 'name' | 'created_at' | 'expires_at' | 'last_used_at'

const SORTS: Readonly<Record<SortKey, readonly [SortColumn, Direction]>> = {
  id_asc: ['id', 'asc'],
  id_desc: ['id', 'desc'],
  name_asc: ['name', 'asc'],
  name_desc: ['name', 'desc'],
  created_asc: ['created_at', 'asc'],
  created_at_asc: ['created_at', 'asc'],
  created_desc: ['created_at', 'desc'],
  created_at_desc: ['created_at', 'desc'],
  created_date: ['created_at', 'desc'],
  expires_asc: ['expires_at', 'asc'],
  expires_desc: ['expires_at', 'desc'],
  last_used_asc: ['last_used_at', 'asc'],
  last_used_desc: ['last_used_at', 'desc'],
}

const NULLABLE: ReadonlySet<SortColumn> = new Set(['expires_at', 'last_used_at'])

/**
 * One `ORDER BY` key: an expression, its direction, and where NULLs go when the dialect says so itself.
 *
 * @example
 * ```ts
 * const key: OrderKey = { expression: sql`"id"`, direction: 'asc', nulls: null }
 * ```
 */
export interface OrderKey {
  readonly expression: RawBuilder<unknown>
  readonly direction: Direction
  readonly nulls: 'first' | 'last' | null
}

/**
 * The `ORDER BY` keys of a sort, matching `compareTokens`: the column, then `id` in the same direction
 * so the order is total and pages never overlap or skip. NULLs sort as larger than any value (last
 * ascending, first descending): `NULLS FIRST/LAST` where the dialect has it, else a leading
 * `column IS NULL` key. Names order by code point through the dialect's binary comparison.
 *
 * @example
 * ```ts
 * orderKeys(mysqlDialect, 'expires_asc') // expires_at is null asc, expires_at asc, id asc
 * ```
 */
export function orderKeys(dialect: SqlDialect, sort: SortKey): readonly OrderKey[] {
  const [column, direction] = SORTS[sort]
  const id: OrderKey = { expression: sql`${sql.ref('tokens.id')}`, direction, nulls: null }
  if (column === 'id') return [id]
  const ref = `tokens.${column}`
  const expression = column === 'name' ? dialect.nameOrderKey(ref) : sql`${sql.ref(ref)}`
  if (!NULLABLE.has(column)) return [{ expression, direction, nulls: null }, id]
  const nulls = direction === 'asc' ? 'last' : 'first'
  if (dialect.supportsNullsOrdering) return [{ expression, direction, nulls }, id]
  // `x IS NULL` is 0 or 1: ascending puts the NULLs (1) last, descending first.
  const nullKey: OrderKey = { expression: sql`${sql.ref(ref)} is null`, direction, nulls: null }
  return [nullKey, { expression, direction, nulls: null }, id]
}
