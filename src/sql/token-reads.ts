import type { Token } from '../domain/token.js'
import type { ListQuery } from '../query/filter.js'
import { pageOffset } from '../query/pagination.js'
import type { SqlContext } from './options.js'
import { orderKeys } from './order.js'
import { decodeInteger, decodeToken, tokenColumns } from './token-row.js'
import { filterCondition } from './where.js'

/**
 * The token with a digest, or null.
 *
 * @example
 * ```ts
 * await findTokenBy(context, 'digest', 'q1w2...')
 * ```
 */
export async function findTokenBy(
  { db, dialect }: SqlContext,
  column: 'id' | 'digest',
  value: number | string,
): Promise<Token | null> {
  const row = await db
    .selectFrom('tokens')
    .select(tokenColumns(dialect))
    .where(column === 'id' ? 'tokens.id' : 'tokens.digest', '=', value)
    .executeTakeFirst()
  return row === undefined ? null : decodeToken(row)
}

/**
 * One page of the tokens matching a list query, in its order, and how many match in all: a
 * `COUNT(*)` and a `LIMIT/OFFSET` select over the same compiled filter.
 *
 * @example
 * ```ts
 * const { items, total } = await listTokens(context, { filter: {}, sort: 'id_asc', page: { page: 1, perPage: 20 }, now })
 * ```
 */
export async function listTokens(
  { db, dialect }: SqlContext,
  query: ListQuery,
): Promise<{ readonly items: readonly Token[]; readonly total: number }> {
  const where = filterCondition(dialect, query.filter, query.now)
  const counted = await db
    .selectFrom('tokens')
    .select((eb) => eb.fn.countAll().as('total'))
    .where(where)
    .executeTakeFirstOrThrow()
  const total = decodeInteger(counted.total, 'count')
  const offset = pageOffset(query.page)
  if (total <= offset) return { items: [], total }
  let page = db.selectFrom('tokens').select(tokenColumns(dialect)).where(where)
  for (const key of orderKeys(dialect, query.sort)) {
    page = page.orderBy(key.expression, (ob) => {
      const directed = key.direction === 'asc' ? ob.asc() : ob.desc()
      if (key.nulls === null) return directed
      return key.nulls === 'first' ? directed.nullsFirst() : directed.nullsLast()
    })
  }
  const rows = await page.limit(query.page.perPage).offset(offset).execute()
  return { items: rows.map(decodeToken), total }
}
