import type { Kysely } from 'kysely'
import type { UserIdType } from '../domain/user-id.js'
import { detectDialect, dialectNamed } from './dialect/detect.js'
import type { SqlDialect, SqlDialectName } from './dialect/sql-dialect.js'
import { PATKIT_TABLES, type PatkitDatabase } from './schema.js'
import type { DirectSqliteDatabase } from './sqlite-direct.js'
import { TablePrefixPlugin } from './table-prefix.js'
import { tablePrefixProblem } from './table-prefix-rule.js'

/**
 * Options of `sqlStore` and `migrate`. Pass the same ones to both.
 *
 * @example
 * ```ts
 * import type { SqlStoreOptions } from 'patkit/sql'
 * const options: SqlStoreOptions = { tablePrefix: 'auth_', dialect: 'mysql' }
 * ```
 */
export interface SqlStoreOptions {
  /**
   * Prepended to every table and index name: lower-case letters, digits and `_`, starting with a
   * letter, at most 32 characters (so index names stay under MySQL's 64). Default `patkit_`.
   */
  readonly tablePrefix?: string
  /** The SQL dialect; detected from the Kysely instance's query compiler when absent. */
  readonly dialect?: SqlDialectName
  /**
   * The kind of user id the tables hold: `'integer'` (GitLab's `bigint`, the default) or `'string'`
   * (`varchar(255)`, for an application's own ids such as UUIDs). Chosen when `migrate` creates the
   * tables and recorded with them: a later `migrate` with the other kind fails instead of mixing them.
   */
  readonly userIdType?: UserIdType
  /**
   * SQLite only, for `sqlStore`: the better-sqlite3 database under the Kysely instance. The joined
   * lookup of `authenticate` then runs as a statement prepared once on it, directly, instead of through
   * Kysely's per-query path (the same SQL text on the same connection; while a transaction is open on
   * it, through Kysely, so it waits for the transaction as before). Pass the database itself, not a
   * second connection to the same file.
   */
  readonly sqliteDatabase?: DirectSqliteDatabase
}

/**
 * The default table prefix.
 *
 * @example
 * ```ts
 * import { DEFAULT_TABLE_PREFIX } from 'patkit/sql'
 * DEFAULT_TABLE_PREFIX // 'patkit_'
 * ```
 */
export const DEFAULT_TABLE_PREFIX = 'patkit_'

/**
 * A store's resolved configuration: the host's Kysely instance seen through the prefix plugin and
 * typed with the store's tables, the dialect, and the prefix.
 */
export interface SqlContext {
  readonly db: Kysely<PatkitDatabase>
  readonly dialect: SqlDialect
  readonly prefix: string
  readonly userIdType: UserIdType
  /** `SqlStoreOptions.sqliteDatabase`, on SQLite only. */
  readonly sqliteDatabase: DirectSqliteDatabase | undefined
}

/**
 * Validates the options and builds the {@link SqlContext}. A bad prefix or an unrecognized dialect is a
 * configuration mistake, reported where it is made.
 *
 * @throws {TypeError} when the prefix is malformed, or no dialect is given and none is recognized.
 */
export function resolveOptions<DB>(db: Kysely<DB>, options: SqlStoreOptions): SqlContext {
  const prefix = options.tablePrefix ?? DEFAULT_TABLE_PREFIX
  const problem = tablePrefixProblem(prefix)
  // A library user's mistake in code: thrown where it is made (the CLI reports the same rule as a sentence).
  if (problem !== null) throw new TypeError(`patkit/sql: tablePrefix ${JSON.stringify(prefix)} ${problem}`)
  // The host's own tables are none of the store's business: the store queries only its tables, so it
  // views the instance with its own schema type.
  const scoped = db.withPlugin(
    new TablePrefixPlugin(prefix, PATKIT_TABLES),
  ) as unknown as Kysely<PatkitDatabase>
  const dialect = options.dialect === undefined ? detectDialect(scoped) : dialectNamed(options.dialect)
  if (dialect === null) {
    throw new TypeError(
      "patkit/sql: cannot tell this Kysely instance's SQL dialect; pass { dialect: 'postgres' | 'mysql' | 'sqlite' }",
    )
  }
  const userIdType = options.userIdType ?? 'integer'
  if (userIdType !== 'integer' && userIdType !== 'string') {
    throw new TypeError(`patkit/sql: userIdType ${JSON.stringify(userIdType)} is not 'integer' or 'string'`)
  }
  if (options.sqliteDatabase !== undefined && dialect.name !== 'sqlite') {
    throw new TypeError(
      `patkit/sql: sqliteDatabase is for SQLite, and this store's dialect is ${dialect.name}`,
    )
  }
  return Object.freeze({ db: scoped, dialect, prefix, userIdType, sqliteDatabase: options.sqliteDatabase })
}
