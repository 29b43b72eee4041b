import type { Kysely, Migration } from 'kysely'
import type { SqlDialect } from '../dialect/sql-dialect.js'

/**
 * Schema version 0002: a `settings` table of named values that belong with the data, first the pepper
 * fingerprint (see `verifyPepper`), so a restart under another pepper is refused instead of silently
 * breaking every stored token.
 */
export function settings(dialect: SqlDialect): Migration {
  return {
    async up(anyDb) {
      const db: Kysely<unknown> = anyDb
      let table = db.schema
        .createTable('settings')
        .ifNotExists()
        .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('value', 'varchar(255)', (c) => c.notNull())
      if (dialect.tableOptions !== null) table = table.modifyEnd(dialect.tableOptions)
      await table.execute()
    },
    async down(anyDb) {
      const db: Kysely<unknown> = anyDb
      await db.schema.dropTable('settings').ifExists().execute()
    },
  }
}
