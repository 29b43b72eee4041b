import type { Kysely } from 'kysely'
import type { SqlDialect } from './dialect/sql-dialect.js'
import type { PatkitDatabase } from './schema.js'

const isIdList = (ids: number | readonly number[]): ids is readonly number[] => Array.isArray(ids)

/**
 * The conditional revoke, `UPDATE tokens SET revoked = true WHERE id = ? AND revoked = false` (or
 * `id IN (...)`), written once for every write that revokes: `revoke`, rotation and reuse detection.
 * The `revoked = false` condition is the decision: the database lets exactly one concurrent statement
 * change a row from active to revoked, and the affected row count tells the caller whether it was this
 * one. Returns the builder, so a caller may compile it once or run it in its transaction.
 */
export function revokeActive(
  db: Kysely<PatkitDatabase>,
  dialect: SqlDialect,
  ids: number | readonly number[],
) {
  const update = db.updateTable('tokens').set({ revoked: dialect.bool(true) })
  const targeted = isIdList(ids) ? update.where('tokens.id', 'in', ids) : update.where('tokens.id', '=', ids)
  return targeted.where('tokens.revoked', '=', dialect.bool(false))
}
