import type { Kysely } from 'kysely'
import type { PatkitDatabase } from '../schema.js'
import { mysqlDialect } from './mysql.js'
import { postgresDialect } from './postgres.js'
import type { SqlDialect, SqlDialectName } from './sql-dialect.js'
import { sqliteDialect } from './sqlite.js'

const DIALECTS: Readonly<Record<SqlDialectName, SqlDialect>> = {
  postgres: postgresDialect,
  mysql: mysqlDialect,
  sqlite: sqliteDialect,
}

/** The dialect of a name. */
export function dialectNamed(name: SqlDialectName): SqlDialect {
  return DIALECTS[name]
}

/**
 * Recognizes the SQL a Kysely instance writes, by compiling one query (nothing is sent to the
 * database). The query compiler is what the store's SQL must match, and every Kysely dialect that
 * reuses kysely's PostgreSQL, MySQL or SQLite compiler (pg, PGlite, Neon, mysql2, PlanetScale,
 * better-sqlite3, libSQL, ...) is recognized without the store knowing its class:
 * `$1` placeholders are PostgreSQL, backtick quotes MySQL, double quotes with `?` placeholders SQLite.
 * Anything else yields `null`, and the caller must name the dialect.
 */
export function detectDialect(db: Kysely<PatkitDatabase>): SqlDialect | null {
  const probe = db.selectFrom('tokens').select('tokens.id').where('tokens.id', '=', 0).compile().sql
  if (probe.includes('$1')) return postgresDialect
  if (probe.includes('`')) return mysqlDialect
  if (probe.includes('"') && probe.includes('?')) return sqliteDialect
  return null
}
