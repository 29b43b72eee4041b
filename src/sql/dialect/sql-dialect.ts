import type { Expression, RawBuilder, SqlBool } from 'kysely'

/**
 * The SQL dialects the SQL store speaks: PostgreSQL (also PGlite), MySQL/MariaDB, SQLite.
 *
 * @example
 * ```ts
 * import type { SqlDialectName } from 'patkit/sql'
 * const dialect: SqlDialectName = 'mysql' // also for MariaDB
 * ```
 */
export type SqlDialectName = 'postgres' | 'mysql' | 'sqlite'

/**
 * A SQL type for a column, written as the dialect spells it in `CREATE TABLE`.
 */
type ColumnSql = RawBuilder<unknown>

/**
 * Everything the SQL store does differently per dialect, in one place: capability flags, how values
 * travel to and from the driver, how columns are declared, and which driver errors mean what. Each
 * dialect file spreads {@link DIALECT_DEFAULTS} and overrides only what differs, so a new flag breaks
 * no dialect (the shape of kysely's `DialectAdapterBase`).
 *
 * Values cross the driver boundary as text on purpose: every driver parses native timestamps and dates
 * with its own time-zone rules (mysql2 and pg read a `DATE` as local midnight by default), so the store
 * writes instants and days as UTC strings and selects them back through {@link SqlDialect.instantText}
 * and {@link SqlDialect.dayText}, whatever the host configured its driver to do.
 */
export interface SqlDialect {
  readonly name: SqlDialectName
  /** `INSERT ... RETURNING id`; otherwise the driver's insert id is read. */
  readonly supportsReturning: boolean
  /** `SELECT ... FOR UPDATE` row locks (SQLite has one writer and no such clause). */
  readonly supportsForUpdate: boolean
  /**
   * Write transactions begin `IMMEDIATE`, taking the write lock first (SQLite: it has no row locks, and
   * a deferred transaction that upgrades its read lock fails at once when another process wrote).
   */
  readonly beginsImmediate: boolean
  /** `ORDER BY x NULLS FIRST | NULLS LAST`; otherwise emulated with a leading `x IS NULL` key. */
  readonly supportsNullsOrdering: boolean
  /** An explicit id does not move the id generator, so `importToken` must (PostgreSQL identities). */
  readonly needsSequenceBump: boolean
  /** `CREATE INDEX IF NOT EXISTS` (MySQL has none; MariaDB has, but one path serves both). */
  readonly supportsCreateIndexIfNotExists: boolean
  /**
   * `replaceAll` first takes `LOCK TABLE ... IN EXCLUSIVE MODE` on the data tables, inside its
   * transaction: PostgreSQL's DELETE under READ COMMITTED misses rows a writer it waited on inserted,
   * so every writer must be done (and the next ones waiting) before it deletes. Not MySQL/MariaDB:
   * `LOCK TABLES` commits the open transaction, and InnoDB's DELETE is a locking read that sees the
   * newest rows and locks the gaps after them. Not SQLite: `BEGIN IMMEDIATE` holds the one write lock.
   */
  readonly locksTablesToReplace: boolean
  /** A boolean as the driver can bind it (better-sqlite3 binds no `true`/`false`). */
  bool(value: boolean): boolean | number
  /** An instant as a parameter the column type parses as UTC with milliseconds. */
  instant(at: Date): string
  /** A column of instants selected as UTC text `YYYY-MM-DD?HH:MM:SS.mmm` (the separator may vary). */
  instantText(column: string): RawBuilder<string | null>
  /** A column of calendar days selected as `YYYY-MM-DD` text. */
  dayText(column: string): RawBuilder<string | null>
  /** The name column as an `ORDER BY` key in Unicode code point order (UTF-8 byte order). */
  nameOrderKey(column: string): RawBuilder<string>
  /**
   * An equality on a unique column, as the query planner should take it: true of at most one row, so
   * it plans without looking at the value. SQLite with STAT4 (better-sqlite3 is built with it) and
   * `ANALYZE` samples otherwise estimates a joined statement's rows from the bound value, and then
   * prepares the statement again every time it is run with another value. The same condition.
   */
  atMostOneRow(condition: Expression<SqlBool>): Expression<SqlBool>
  /** Column types for `CREATE TABLE`. */
  readonly types: {
    readonly instant: ColumnSql
    readonly day: ColumnSql
    readonly boolean: ColumnSql
    /** The whole definition of an auto-generated primary key, `primary key` included. */
    readonly id: ColumnSql
  }
  /** Table options appended to `CREATE TABLE` (MySQL: engine and binary collation). */
  readonly tableOptions: RawBuilder<unknown> | null
  /** Whether a driver error is a unique-constraint violation. */
  isUniqueViolation(error: unknown): boolean
  /** Whether a driver error means "the transaction lost a race; running it again is safe". */
  isRetryable(error: unknown): boolean
}

/** The conservative defaults every dialect starts from: no optional SQL feature assumed. */
export const DIALECT_DEFAULTS = {
  supportsReturning: false,
  supportsForUpdate: false,
  beginsImmediate: false,
  supportsNullsOrdering: false,
  needsSequenceBump: false,
  supportsCreateIndexIfNotExists: false,
  locksTablesToReplace: false,
  tableOptions: null,
  bool: (value: boolean): boolean | number => value,
  atMostOneRow: (condition: Expression<SqlBool>): Expression<SqlBool> => condition,
} as const satisfies Partial<SqlDialect>

/**
 * The `code` (or `errno`) property a driver error carries, as a string; `undefined` when there is none.
 */
export function errorCode(error: unknown, property: 'code' | 'errno' = 'code'): string | undefined {
  if (typeof error !== 'object' || error === null || !(property in error)) return undefined
  const value: unknown = (error as Record<typeof property, unknown>)[property]
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined
}
