/**
 * What a table prefix must be, in words, for the messages of every edge that checks one.
 */
const TABLE_PREFIX_RULE = 'lower-case letters, digits and _, starting with a letter, at most 32 characters'

// Lower case only: PostgreSQL folds unquoted names, and pg_get_serial_sequence takes an unquoted one.
// At most 32 characters, so the longest index name stays under MySQL's 64.
const PREFIX = /^(?:[a-z][a-z0-9_]{0,31})?$/

/**
 * The SQL store's one rule for a table prefix: `null` when `prefix` is valid, else the reason, as text
 * (`must be ...`) for the caller to put after the name it knows the value by. Pure and free of Kysely,
 * so `patkit serve` checks `--table-prefix` with it before it loads the SQL store.
 */
export function tablePrefixProblem(prefix: string): string | null {
  return PREFIX.test(prefix) ? null : `must be ${TABLE_PREFIX_RULE}`
}
