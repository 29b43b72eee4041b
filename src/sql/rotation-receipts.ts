import type { Kysely } from 'kysely'
import { isRedeemable, type RedeemedReceipt, type RotationReceiptDraft } from '../domain/rotation-receipt.js'
import type { SqlDialect } from './dialect/sql-dialect.js'
import type { SqlContext } from './options.js'
import type { PatkitDatabase } from './schema.js'
import type { Statements } from './statements.js'
import { retrying } from './store-failure.js'
import { findTokenBy } from './token-reads.js'
import { decodeInstant, decodeInteger, decodeToken, tokenColumns } from './token-row.js'
import { writeTransaction } from './transaction.js'

/** Writes a rotation's receipt, inside the rotation's own transaction (see `rotateRow`). */
export async function insertReceipt(
  trx: Kysely<PatkitDatabase>,
  dialect: SqlDialect,
  tokenId: number,
  successorId: number,
  receipt: RotationReceiptDraft,
): Promise<void> {
  await trx
    .insertInto('rotation_receipts')
    .values({
      token_id: tokenId,
      successor_id: successorId,
      key_digest: receipt.keyDigest,
      sealed_secret: receipt.sealedSecret,
      expires_at: dialect.instant(receipt.expiresAt),
    })
    .execute()
}

/**
 * Deletes the receipts whose window closed at or before `at`, as one statement of its own before a
 * keyed rotation's transaction: the delete never lengthens the family's lock, and a failure leaves
 * nothing rotated. Racing deletes of the same rows only wait on each other; a deadlock is retried.
 */
export function pruneReceipts({ db, dialect }: SqlContext, at: Date): Promise<void> {
  return retrying(async () => {
    await db
      .deleteFrom('rotation_receipts')
      .where('rotation_receipts.expires_at', '<=', dialect.instant(at))
      .execute()
  }, dialect.isRetryable)
}

/**
 * Consumes the receipt of `tokenId`'s rotation if its key digest matches and it is redeemable at `now`
 * (`isRedeemable`), in one transaction that first takes the family's lock, the one every rotation and
 * reuse detection takes. So the check and the delete see the family as it is: no rotation or detection
 * of the successor can commit in between, and concurrent consumers queue on the lock, the first deletes
 * the row, and the others, reading after it committed (a new statement, a new snapshot under READ
 * COMMITTED; locking reads under REPEATABLE READ), find none. The receipt and the successor are read
 * `FOR UPDATE`, so a concurrent `touchLastUsed` of the successor is ordered before or after, never
 * missed. SQLite's IMMEDIATE transaction holds the database's write lock instead.
 */
export async function consumeReceipt(
  context: SqlContext,
  statements: Statements,
  tokenId: number,
  keyDigest: string,
  now: Date,
): Promise<RedeemedReceipt | null> {
  const { dialect } = context
  // A family id never changes, so it is read before the transaction, lock-free (as revokeDescendants).
  const rotated = await findTokenBy(context, statements, 'id', tokenId)
  if (rotated === null) return null
  return writeTransaction(context, async (trx): Promise<RedeemedReceipt | null> => {
    if (statements.lockFamily !== null) await statements.lockFamily.run(trx, [rotated.familyId])
    let receiptQuery = trx
      .selectFrom('rotation_receipts')
      .select([
        'rotation_receipts.successor_id',
        'rotation_receipts.sealed_secret',
        dialect.instantText('rotation_receipts.expires_at').as('expires_at_utc'),
      ])
      .where('rotation_receipts.token_id', '=', tokenId)
      .where('rotation_receipts.key_digest', '=', keyDigest)
    if (dialect.supportsForUpdate) receiptQuery = receiptQuery.forUpdate()
    const row = await receiptQuery.executeTakeFirst()
    if (row === undefined) return null
    const receipt = {
      successorId: decodeInteger(row.successor_id, 'successor_id'),
      expiresAt: decodeInstant(row.expires_at_utc, 'expires_at'),
    }
    let successorQuery = trx
      .selectFrom('tokens')
      .select(tokenColumns(dialect))
      .where('tokens.id', '=', receipt.successorId)
    if (dialect.supportsForUpdate) successorQuery = successorQuery.forUpdate()
    const successorRow = await successorQuery.executeTakeFirst()
    const successor = successorRow === undefined ? null : decodeToken(successorRow, context.userIdType)
    if (successor === null || !isRedeemable(receipt, successor, now)) return null
    const deleted = await trx
      .deleteFrom('rotation_receipts')
      .where('rotation_receipts.token_id', '=', tokenId)
      .where('rotation_receipts.key_digest', '=', keyDigest)
      .executeTakeFirst()
    // The lock makes this 1; should it be 0 all the same, another caller got the receipt, not this one.
    if (deleted.numDeletedRows !== 1n) return null
    if (typeof row.sealed_secret !== 'string') {
      throw new TypeError(`patkit/sql: unexpected sealed_secret value ${String(row.sealed_secret)}`)
    }
    return { successor, sealedSecret: row.sealed_secret }
  })
}
