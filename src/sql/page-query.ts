import type { SelectQueryBuilder } from 'kysely'
import type { PageRequest } from '../query/filter.js'
import { pageOffset } from '../query/pagination.js'
import type { StorePage } from '../store/hook-store.js'
import { decodeInteger } from './token-row.js'

// Every SQL list's page and total, so the count and the page always share one condition: a COUNT(*)
// over `matching`, then `rows(matching)` (its columns and order) in the page's window, skipped when the
// page starts at or past the total, as it would be empty. `matching` is a select with its FROM and
// WHERE and nothing selected yet.
export async function selectPage<DB, TB extends keyof DB, O, Row, Item>(
  matching: SelectQueryBuilder<DB, TB, O>,
  rows: (matching: SelectQueryBuilder<DB, TB, O>) => SelectQueryBuilder<DB, TB, Row>,
  page: PageRequest,
  decode: (row: Row) => Item,
): Promise<StorePage<Item>> {
  const counted = await matching
    .select((eb) => eb.fn.countAll().as('total'))
    // Generic over the tables, Kysely cannot name the selection; `decodeInteger` checks the value.
    .$castTo<{ total: unknown }>()
    .executeTakeFirstOrThrow()
  const total = decodeInteger(counted.total, 'count')
  const offset = pageOffset(page)
  if (total <= offset) return Object.freeze({ items: Object.freeze([]), total })
  const found = await rows(matching).limit(page.perPage).offset(offset).execute()
  return Object.freeze({ items: Object.freeze(found.map((row) => decode(row))), total })
}
