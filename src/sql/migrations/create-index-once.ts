import { type Kysely, sql } from 'kysely'
import type { SqlDialect } from '../dialect/sql-dialect.js'

/** One index of a migration: its full (prefixed) name, the table's unprefixed name, the columns. */
export interface IndexSpec {
  readonly name: string
  readonly table: string
  readonly columns: readonly string[]
  readonly unique?: boolean
}

/**
 * Creates an index unless it exists, so a migration that stopped half-way (MySQL and SQLite run DDL
 * outside a transaction) can simply run again. MySQL has no `CREATE INDEX IF NOT EXISTS`, so there
 * the catalog is asked first.
 */
export async function createIndexOnce(
  db: Kysely<unknown>,
  dialect: SqlDialect,
  prefix: string,
  index: IndexSpec,
): Promise<void> {
  if (!dialect.supportsCreateIndexIfNotExists) {
    const found = await sql<{ n: unknown }>`
      select count(*) as n from information_schema.statistics
      where table_schema = database() and table_name = ${prefix + index.table} and index_name = ${index.name}`.execute(
      db,
    )
    if (Number(found.rows[0]?.n ?? 0) > 0) return
  }
  let builder = db.schema
    .createIndex(index.name)
    .on(index.table)
    .columns([...index.columns])
  if (index.unique === true) builder = builder.unique()
  if (dialect.supportsCreateIndexIfNotExists) builder = builder.ifNotExists()
  await builder.execute()
}
