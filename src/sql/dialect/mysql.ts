import { sql } from 'kysely'
import { DIALECT_DEFAULTS, errorCode, type SqlDialect } from './sql-dialect.js'

// ER_DUP_ENTRY; ER_LOCK_DEADLOCK, and ER_CHECKREAD, MariaDB's "record has changed since last read"
// under innodb_snapshot_isolation: both roll the transaction back, so running it again is safe.
const DUPLICATE_ENTRY = '1062'
const RETRYABLE = new Set(['1213', '1020'])

/**
 * MySQL and MariaDB through `mysql2`: `datetime(3)` holding UTC, `date`, `boolean` (a `tinyint(1)`), an
 * `auto_increment` id, InnoDB tables in `utf8mb4_bin`, no `RETURNING` (the insert id is read instead),
 * `NULLS FIRST/LAST` emulated, and names ordered as binary strings.
 */
export const mysqlDialect: SqlDialect = Object.freeze({
  ...DIALECT_DEFAULTS,
  name: 'mysql',
  supportsForUpdate: true,
  // A `datetime` has no time zone, so the session's time_zone never shifts it: the store writes UTC.
  instant: (at: Date) => at.toISOString().replace('T', ' ').slice(0, 23),
  instantText: (column: string) => sql<string | null>`cast(${sql.ref(column)} as char)`,
  dayText: (column: string) => sql<string | null>`cast(${sql.ref(column)} as char)`,
  // utf8mb4_bin is a PAD SPACE collation ('a' and 'a ' tie); a binary string compares every byte.
  nameOrderKey: (column: string) => sql<string>`cast(${sql.ref(column)} as binary)`,
  types: {
    instant: sql`datetime(3)`,
    day: sql`date`,
    boolean: sql`boolean`,
    id: sql`bigint auto_increment primary key`,
  },
  // Binary collation for every text column: digests are case-sensitive, names order by code point.
  tableOptions: sql`engine = InnoDB default charset = utf8mb4 collate = utf8mb4_bin`,
  isUniqueViolation: (error: unknown) => errorCode(error, 'errno') === DUPLICATE_ENTRY,
  isRetryable: (error: unknown) => RETRYABLE.has(errorCode(error, 'errno') ?? ''),
})
