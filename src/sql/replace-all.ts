import { err, type Result } from 'neverthrow'
import type { TokenStore } from '../store/token-store.js'
import type { SqlContext } from './options.js'
import { writeTransaction } from './transaction.js'

// The tables holding the data, children first. The settings (the pepper fingerprint) stay: they
// describe the tables, not the data; the cache change log stays: other instances read it by number.
const DATA_TABLES = ['members', 'rotation_receipts', 'tokens', 'projects', 'groups', 'users'] as const

/** Thrown out of the transaction so that it rolls back; the callback's error is kept beside it. */
const REFUSED = Symbol('refused')

/**
 * Deletes every data row under the store's prefix and runs `write` on a store bound to the same
 * transaction, committing only when it answers ok. DML only: MySQL/MariaDB would commit at any DDL.
 * The id sequences are not reset (PostgreSQL's and MySQL's are not transactional): ids the store
 * assigns later stay above every id it assigned before.
 */
export async function replaceAllRows<T, E>(
  context: SqlContext,
  storeOn: (context: SqlContext) => TokenStore,
  write: (empty: TokenStore) => Promise<Result<T, E>>,
): Promise<Result<T, E>> {
  const refusal: { error?: E; refused: boolean } = { refused: false }
  try {
    return await writeTransaction(context, async (trx) => {
      for (const table of DATA_TABLES) await trx.deleteFrom(table).execute()
      const written = await write(storeOn({ ...context, db: trx, inTransaction: true }))
      if (written.isErr()) {
        refusal.error = written.error
        refusal.refused = true
        throw REFUSED
      }
      return written
    })
  } catch (thrown) {
    if (thrown === REFUSED && refusal.refused) return err(refusal.error as E)
    throw thrown
  }
}
