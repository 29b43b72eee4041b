import type { Kysely, Migration } from 'kysely'
import type { SqlDialect } from '../dialect/sql-dialect.js'
import { createIndexOnce, type IndexSpec } from './create-index-once.js'

/** The indexes of schema version 0003, and why each exists. */
export function receiptIndexes(prefix: string): readonly IndexSpec[] {
  return [
    // A keyed rotation deletes the receipts whose window has closed: a range scan, not a table scan.
    {
      name: `${prefix}rotation_receipts_expires_at_idx`,
      table: 'rotation_receipts',
      columns: ['expires_at'],
    },
  ]
}

/**
 * Schema version 0003: the `rotation_receipts` table behind the `Idempotency-Key` header on rotate.
 * One row per token rotated with a key (the rotated token's id is the primary key: a token is rotated
 * at most once), written in the rotation's transaction. It holds the successor's id, a digest of the
 * key and the successor's secret sealed under a key derived from material the database never holds,
 * and the end of the replay window. No foreign keys, as in 0001: tokens are never deleted.
 */
export function rotationReceipts(dialect: SqlDialect, prefix: string): Migration {
  return {
    async up(anyDb) {
      const db: Kysely<unknown> = anyDb
      let table = db.schema
        .createTable('rotation_receipts')
        .ifNotExists()
        .addColumn('token_id', 'bigint', (c) => c.primaryKey())
        .addColumn('successor_id', 'bigint', (c) => c.notNull())
        .addColumn('key_digest', 'varchar(64)', (c) => c.notNull())
        .addColumn('sealed_secret', 'text', (c) => c.notNull())
        .addColumn('expires_at', dialect.types.instant, (c) => c.notNull())
      if (dialect.tableOptions !== null) table = table.modifyEnd(dialect.tableOptions)
      await table.execute()
      for (const index of receiptIndexes(prefix)) await createIndexOnce(db, dialect, prefix, index)
    },
    async down(anyDb) {
      const db: Kysely<unknown> = anyDb
      await db.schema.dropTable('rotation_receipts').ifExists().execute()
    },
  }
}
