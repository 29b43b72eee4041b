import { type Kysely, type Migration, sql } from 'kysely'
import type { SqlDialect } from '../dialect/sql-dialect.js'

/**
 * Whether the store's `tokens` table already has the column: one catalog lookup of that column.
 * PGlite and PostgreSQL answer from `information_schema` in the current schema, MySQL in the current
 * database, SQLite from `pragma_table_info`.
 */
async function hasColumn(db: Kysely<unknown>, dialect: SqlDialect, table: string): Promise<boolean> {
  const found =
    dialect.name === 'sqlite'
      ? await sql<{
          n: unknown
        }>`select count(*) as n from pragma_table_info(${table}) where name = 'last_used_ips'`.execute(db)
      : await sql<{ n: unknown }>`select count(*) as n from information_schema.columns
          where table_schema = ${dialect.name === 'mysql' ? sql`database()` : sql`current_schema()`}
          and table_name = ${table} and column_name = 'last_used_ips'`.execute(db)
  return Number(found.rows[0]?.n ?? 0) > 0
}

/**
 * Schema version 0005: `tokens.last_used_ips`, the last client IPs that used a token (GitLab's
 * `last_used_ips`, at most five), oldest first, separated by single spaces; `''` when none. Five IPv6
 * addresses of at most 45 characters and their separators fit in 255.
 *
 * MySQL and SQLite cannot roll DDL back, so the column is added only when missing: a run that stopped
 * after the `ALTER TABLE` but before recording the version simply runs again, and of two processes
 * starting on one SQLite file the one that loses the race finds the column added.
 */
export function lastUsedIps(dialect: SqlDialect, prefix: string): Migration {
  return {
    async up(anyDb) {
      const db: Kysely<unknown> = anyDb
      const table = `${prefix}tokens`
      if (await hasColumn(db, dialect, table)) return
      try {
        await db.schema
          .alterTable('tokens')
          .addColumn('last_used_ips', 'varchar(255)', (c) => c.notNull().defaultTo(''))
          .execute()
      } catch (error) {
        // Two processes migrating one SQLite file (no cross-process migration lock) can both find
        // the column missing: the second ALTER fails with "duplicate column name", and the column is
        // there as wanted. PostgreSQL and MySQL migrate under a lock, so an error there is real.
        if (dialect.name === 'sqlite' && (await hasColumn(db, dialect, table))) return
        throw error
      }
    },
    async down(anyDb) {
      const db: Kysely<unknown> = anyDb
      await db.schema.alterTable('tokens').dropColumn('last_used_ips').execute()
    },
  }
}
