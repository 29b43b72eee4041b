import { type Kysely, sql } from 'kysely'
import type { SqlContext } from './options.js'
import type { PatkitDatabase } from './schema.js'
import { retrying } from './store-failure.js'

// SQLite's write transactions take the database's write lock at BEGIN: a deferred transaction that
// reads first and writes later fails with SQLITE_BUSY at once when another connection (another
// process) wrote in between, without waiting on the busy timeout, and the failure is not retryable
// inside the transaction. IMMEDIATE waits on the busy timeout instead, and then holds the lock.
async function immediate<T>(
  db: Kysely<PatkitDatabase>,
  work: (trx: Kysely<PatkitDatabase>) => Promise<T>,
): Promise<T> {
  return db.connection().execute(async (connection) => {
    await sql`begin immediate`.execute(connection)
    let result: T
    try {
      result = await work(connection)
      await sql`commit`.execute(connection)
    } catch (error) {
      // A failed COMMIT (SQLITE_BUSY) leaves the transaction open; a failed statement may have too.
      await sql`rollback`.execute(connection).catch(() => {})
      throw error
    }
    return result
  })
}

/**
 * Runs `work` as one write transaction, again from the start when the database rolled it back for
 * losing a race (a deadlock, a serialization failure, SQLite's busy timeout running out): nothing of a
 * rolled-back attempt persists, and the next one sees the winner's writes. On SQLite the transaction
 * begins IMMEDIATE, so two processes on one file queue for the write lock instead of failing.
 */
export function writeTransaction<T>(
  { db, dialect }: SqlContext,
  work: (trx: Kysely<PatkitDatabase>) => Promise<T>,
): Promise<T> {
  const once = dialect.beginsImmediate ? () => immediate(db, work) : () => db.transaction().execute(work)
  return retrying(once, dialect.isRetryable)
}
