import type { Kysely } from 'kysely'
import type { RotationReceiptDraft } from '../domain/rotation-receipt.js'
import type { Token, TokenDraft } from '../domain/token.js'
import type { SqlContext } from './options.js'
import { insertReceipt } from './rotation-receipts.js'
import type { PatkitDatabase } from './schema.js'
import { insertColumns, type Statements } from './statements.js'
import { explainInsertFailure, insertDraft, storedToken } from './token-insert.js'
import { findTokenBy } from './token-reads.js'
import { decodeBoolean, decodeInteger, encodeToken } from './token-row.js'
import { writeTransaction } from './transaction.js'

/** What a rotation found: it rotated, or the old token was missing or already revoked. */
export type RotateOutcome =
  | { readonly kind: 'rotated'; readonly token: Token }
  | { readonly kind: 'not_found' }
  | { readonly kind: 'already_revoked' }

// The successor through the compiled insert. A draft without a family (never one a rotation makes)
// takes the general path, which points a new family at the row's own id.
async function insertSuccessor(
  trx: Kysely<PatkitDatabase>,
  { dialect }: SqlContext,
  statements: Statements,
  draft: TokenDraft,
): Promise<Token> {
  if (draft.familyId === null) return insertDraft(trx, dialect, draft)
  const encoded = encodeToken(dialect, draft, draft.familyId)
  const result = await statements.insert.run(
    trx,
    insertColumns.map((column) => encoded[column]),
  )
  const id = dialect.supportsReturning ? result.rows[0]?.id : result.insertId
  return storedToken(draft, decodeInteger(id, 'id'), draft.familyId)
}

function rotateOnce(
  context: SqlContext,
  statements: Statements,
  oldId: number,
  successor: TokenDraft,
  familyId: number | null,
  receipt: RotationReceiptDraft | undefined,
) {
  return writeTransaction(context, async (trx): Promise<RotateOutcome> => {
    // The family is the unit of locking: reuse detection takes the same root lock first, so it either
    // runs wholly before this rotation (which then finds its token revoked) or wholly after it (and
    // then sees, and revokes, the successor inserted here). Without it, a detection waiting on the old
    // token's row lock re-reads that row after the commit but never sees the new successor.
    // A family's first rotation presents the root itself: the conditional write below locks that very
    // row (PostgreSQL's FOR NO KEY UPDATE, which the root lock's FOR UPDATE waits on; InnoDB's exclusive
    // lock), so it takes the root lock as its first act and a separate lock would be a round trip more.
    if (statements.lockFamily !== null && familyId !== null && familyId !== oldId) {
      await statements.lockFamily.run(trx, [familyId])
    }
    // The conditional write is the decision: the database lets exactly one concurrent transaction
    // change `revoked` from false to true, and the others see 0 rows (or a serialization failure,
    // which `writeTransaction` turns into a fresh attempt that sees 0 rows).
    const revoked = await statements.revokeIfActive.run(trx, [oldId])
    if ((revoked.numAffectedRows ?? 0n) === 0n) {
      const row = await trx
        .selectFrom('tokens')
        .select('tokens.id')
        .where('tokens.id', '=', oldId)
        .executeTakeFirst()
      return row === undefined ? { kind: 'not_found' } : { kind: 'already_revoked' }
    }
    const token = await insertSuccessor(trx, context, statements, successor)
    // In the same transaction: a rotation never commits without the receipt its client asked for.
    if (receipt !== undefined) await insertReceipt(trx, context.dialect, oldId, token.id, receipt)
    return { kind: 'rotated', token }
  })
}

// The family whose root a rotation locks: the successor's (a rotation continues its predecessor's
// family), else the old token's, read before the transaction (a family id never changes, and a read
// inside it would take a shared lock under MySQL's SERIALIZABLE, which racing rotations then fail to
// upgrade). Null where nothing is locked: no row locks, or no such token.
async function familyOf(
  context: SqlContext,
  statements: Statements,
  oldId: number,
  successor: TokenDraft,
): Promise<number | null> {
  if (statements.lockFamily === null) return null
  if (successor.familyId !== null) return successor.familyId
  return (await findTokenBy(context, statements, 'id', oldId))?.familyId ?? null
}

/**
 * Rotates in one transaction: revoke `oldId` only if it is not revoked (checking the affected row
 * count, as MySQL has no RETURNING), then insert the successor, and with a `receipt` the rotation
 * receipt (`rotateWithReceipt`). Either every write persists or none does.
 *
 * The UNIQUE index on `previous_id` is the backstop: should an isolation level or a driver let two
 * rotations both pass the conditional write, the second successor's insert violates it, its transaction
 * rolls back, and the rotation reports `already_revoked` once the old token is seen revoked. Any other
 * unique violation names the key it met (`explainInsertFailure`: the successor's digest is already
 * stored, which the caller answers by minting again) and, as every other failure, is rethrown (and
 * becomes a `store_failure`, with `conflict` for a named key).
 */
export async function rotateRow(
  context: SqlContext,
  statements: Statements,
  oldId: number,
  successor: TokenDraft,
  receipt?: RotationReceiptDraft,
): Promise<RotateOutcome> {
  try {
    return await rotateOnce(
      context,
      statements,
      oldId,
      successor,
      await familyOf(context, statements, oldId, successor),
      receipt,
    )
  } catch (error) {
    if (!context.dialect.isUniqueViolation(error)) throw error
    const old = await context.db
      .selectFrom('tokens')
      .select('tokens.revoked')
      .where('tokens.id', '=', oldId)
      .executeTakeFirst()
    if (old !== undefined && decodeBoolean(old.revoked, 'revoked')) return { kind: 'already_revoked' }
    throw await explainInsertFailure(context, error, successor)
  }
}
