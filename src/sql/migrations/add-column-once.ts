import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { SqlDialect } from '../dialect/sql-dialect.js'

/** Whether a (prefixed) table already has the column: one catalog lookup. */
async function hasColumn(db: Kysely<unknown>, dialect: SqlDialect, table: string, column: string) {
  const found =
    dialect.name === 'sqlite'
      ? await sql<{
          n: unknown
        }>`select count(*) as n from pragma_table_info(${table}) where name = ${column}`.execute(db)
      : await sql<{ n: unknown }>`select count(*) as n from information_schema.columns
          where table_schema = ${dialect.name === 'mysql' ? sql`database()` : sql`current_schema()`}
          and table_name = ${table} and column_name = ${column}`.execute(db)
  return Number(found.rows[0]?.n ?? 0) > 0
}

/** One column a migration adds to an existing table: its name, SQL type, and whether it is a flag. */
export interface ColumnSpec {
  readonly name: string
  readonly type: RawBuilder<unknown> | 'varchar(255)' | 'varchar(16)' | 'bigint'
  /** A boolean flag, `not null default false`; otherwise the column is nullable without default. */
  readonly flag?: boolean
}

/**
 * Adds a column unless it exists (MySQL and SQLite cannot roll DDL back, so a migration that stopped
 * half-way runs again; two processes migrating one SQLite file may race, and the loser finds it).
 */
export async function addColumnOnce(
  db: Kysely<unknown>,
  dialect: SqlDialect,
  prefix: string,
  table: string,
  column: ColumnSpec,
): Promise<void> {
  const prefixed = `${prefix}${table}`
  if (await hasColumn(db, dialect, prefixed, column.name)) return
  try {
    await db.schema
      .alterTable(table)
      .addColumn(column.name, column.type, (c) =>
        column.flag === true ? c.notNull().defaultTo(dialect.bool(false)) : c,
      )
      .execute()
  } catch (error) {
    if (dialect.name === 'sqlite' && (await hasColumn(db, dialect, prefixed, column.name))) return
    throw error
  }
}
