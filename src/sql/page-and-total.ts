import { decodeInteger } from './token-row.js'

// What `pageAndTotal` asks of Kysely's select builders: a page query (its columns, condition and
// order set) to limit, and a count query with the same condition.
interface PageQuery<Row> {
  limit(limit: number): { offset(offset: number): { execute(): Promise<Row[]> } }
}
interface CountQuery {
  executeTakeFirstOrThrow(): Promise<{ readonly total: unknown }>
}

/**
 * One page of rows (1-based `page`) and how many match in all: the page's statement, then the count
 * with the same condition, decoded and frozen (the audit events' and the hook logs' lists).
 */
export async function pageAndTotal<Row, Item>(
  pageQuery: PageQuery<Row>,
  countQuery: CountQuery,
  decode: (row: Row) => Item,
  page: number,
  perPage: number,
): Promise<{ readonly items: readonly Item[]; readonly total: number }> {
  const rows = await pageQuery
    .limit(perPage)
    .offset((page - 1) * perPage)
    .execute()
  const counted = await countQuery.executeTakeFirstOrThrow()
  return Object.freeze({
    items: Object.freeze(rows.map(decode)),
    total: decodeInteger(counted.total, 'count'),
  })
}
