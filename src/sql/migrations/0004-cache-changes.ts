import type { Kysely, Migration } from 'kysely'
import type { SqlDialect } from '../dialect/sql-dialect.js'
import { createIndexOnce } from './create-index-once.js'

/**
 * Schema version 0004: `cache_changes`, the change log behind `pollingInvalidation`. Each write through a
 * cache appends one row (an auto-generated `seq`, the invalidation as JSON, when it was written); every
 * instance reads the rows after the last it saw, and deletes the rows older than its retention. Unused
 * when no cache polls.
 */
export function cacheChanges(dialect: SqlDialect, prefix: string): Migration {
  return {
    async up(anyDb) {
      const db: Kysely<unknown> = anyDb
      let table = db.schema
        .createTable('cache_changes')
        .ifNotExists()
        .addColumn('seq', dialect.types.id)
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('created_at', dialect.types.instant, (c) => c.notNull())
      if (dialect.tableOptions !== null) table = table.modifyEnd(dialect.tableOptions)
      await table.execute()
      // Pruning deletes by age: a range scan.
      await createIndexOnce(db, dialect, prefix, {
        name: `${prefix}cache_changes_created_at_idx`,
        table: 'cache_changes',
        columns: ['created_at'],
      })
    },
    async down(anyDb) {
      const db: Kysely<unknown> = anyDb
      await db.schema.dropTable('cache_changes').ifExists().execute()
    },
  }
}
