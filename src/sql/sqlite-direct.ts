import type { Kysely } from 'kysely'
import type { Prepared } from './prepared.js'
import type { PatkitDatabase } from './schema.js'

/**
 * The part of a better-sqlite3 `Database` the store reads from directly: see
 * `SqlStoreOptions.sqliteDatabase`.
 *
 * @example
 * ```ts
 * import type { DirectSqliteDatabase } from 'patkit/sql'
 * import Database from 'better-sqlite3'
 * const database: DirectSqliteDatabase = new Database(':memory:')
 * ```
 */
export interface DirectSqliteDatabase {
  prepare(sql: string): DirectSqliteStatement
  readonly inTransaction: boolean
}

/** The part of a better-sqlite3 `Statement` the store uses: rows read as arrays of column values. */
interface DirectSqliteStatement {
  raw(toggle?: boolean): unknown
  get(...parameters: unknown[]): unknown
}

/**
 * Runs a one-row read of a {@link Prepared} statement: the first row, or undefined; at once when read
 * directly (better-sqlite3 is synchronous), a promise through Kysely. A failure may throw or reject.
 */
export type FirstRow<R> = (
  db: Kysely<PatkitDatabase>,
  values: readonly unknown[],
) => R | undefined | Promise<R | undefined>

/**
 * The first row of `prepared`, read through Kysely, or with `database` given, as a better-sqlite3
 * statement prepared once on it and run directly: the same SQL text and parameters on the same
 * connection, without Kysely's per-query path (its connection mutex, executor and awaits). While a
 * transaction is open on the connection, the read goes through Kysely and so waits for it, as every
 * other statement does: a direct read then would see the transaction's uncommitted writes.
 *
 * The direct read takes the row as an array of its column values, which `fromValues` names (in the
 * statement's column order): better-sqlite3 builds an object row with one property set from C++ per
 * column, which costs more than the query itself for a row as wide as the joined lookup's.
 */
export function firstRow<R>(
  prepared: Prepared<R>,
  database: DirectSqliteDatabase | undefined,
  fromValues: (values: readonly unknown[]) => R,
): FirstRow<R> {
  const throughKysely = async (db: Kysely<PatkitDatabase>, values: readonly unknown[]) =>
    (await prepared.run(db, values)).rows[0]
  if (database === undefined) return throughKysely
  // Prepared on first use, not at construction: the tables may not exist before `migrate` runs.
  let statement: DirectSqliteStatement | undefined
  return (db, values) => {
    // Kysely's own transactions (`BEGIN` on the one connection) and the host's alike.
    if (database.inTransaction) return throughKysely(db, values)
    if (statement === undefined) {
      statement = database.prepare(prepared.sql)
      statement.raw(true)
    }
    const row = statement.get(...prepared.bind(values)) as readonly unknown[] | undefined
    return row === undefined ? undefined : fromValues(row)
  }
}
