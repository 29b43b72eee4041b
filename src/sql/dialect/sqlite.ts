import { type Expression, type SqlBool, sql } from 'kysely'
import { DIALECT_DEFAULTS, errorCode, type SqlDialect } from './sql-dialect.js'

// better-sqlite3 sets extended result codes; other drivers only say so in the message.
const UNIQUE_CODES = new Set(['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY'])
const UNIQUE_MESSAGE = /UNIQUE constraint failed/
// SQLITE_BUSY and its extended codes (BUSY_SNAPSHOT, BUSY_RECOVERY, BUSY_TIMEOUT): another connection
// held the lock past the busy timeout, and the statement or transaction did nothing.
const BUSY = /^SQLITE_BUSY/

/**
 * SQLite through `better-sqlite3` (or another driver whose Kysely dialect compiles SQLite): instants as
 * ISO-8601 UTC text (fixed width, so text order is time order), days as `YYYY-MM-DD` text, booleans as
 * 0/1, an `autoincrement` id (never reused), the default BINARY collation (code point order), and
 * `NULLS FIRST/LAST` emulated for SQLite builds older than 3.30.
 */
export const sqliteDialect: SqlDialect = Object.freeze({
  ...DIALECT_DEFAULTS,
  name: 'sqlite',
  // RETURNING needs SQLite 3.35; the driver's last insert rowid works with every version.
  supportsReturning: false,
  supportsCreateIndexIfNotExists: true,
  beginsImmediate: true,
  bool: (value: boolean) => (value ? 1 : 0),
  instant: (at: Date) => at.toISOString(),
  instantText: (column: string) => sql<string | null>`${sql.ref(column)}`,
  dayText: (column: string) => sql<string | null>`${sql.ref(column)}`,
  nameOrderKey: (column: string) => sql<string>`${sql.ref(column)}`,
  // likelihood() returns its condition; the probability (the least SQLite tells apart, 2^-27) skips
  // the planner's STAT4 probe of the bound value, so the statement is not prepared again per value.
  atMostOneRow: (condition: Expression<SqlBool>) => sql<SqlBool>`likelihood(${condition}, 0.000000001)`,
  types: {
    instant: sql`text`,
    day: sql`text`,
    boolean: sql`boolean`,
    id: sql`integer primary key autoincrement`,
  },
  isUniqueViolation: (error: unknown) =>
    UNIQUE_CODES.has(errorCode(error) ?? '') ||
    (error instanceof Error && UNIQUE_MESSAGE.test(error.message)),
  isRetryable: (error: unknown) => BUSY.test(errorCode(error) ?? ''),
})
