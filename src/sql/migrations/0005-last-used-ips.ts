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
 * after the `ALTER TABLE` but before recording the version simply runs again.
 *
 * @example
 * ```ts
 * import { sqliteDialect } from '../dialect/sqlite.js'
 * import { lastUsedIps } from './0005-last-used-ips.js'
 *
 * const migration = lastUsedIps(sqliteDialect, 'patkit_')
 * ```
 */
export function lastUsedIps(dialect: SqlDialect, prefix: string): Migration {
  return {
    async up(anyDb) {
      const db: Kysely<unknown> = anyDb
      if (await hasColumn(db, dialect, `${prefix}tokens`)) return
      await db.schema
        .alterTable('tokens')
        .addColumn('last_used_ips', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .execute()
    },
    async down(anyDb) {
      const db: Kysely<unknown> = anyDb
      await db.schema.alterTable('tokens').dropColumn('last_used_ips').execute()
    },
  }
}
