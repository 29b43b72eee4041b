import { lastUsedCutoff, nextLastUsed } from '../domain/last-used.js'
import type { Token, TokenDraft } from '../domain/token.js'
import type { RevokeOutcome } from '../store/token-store.js'
import type { SqlContext } from './options.js'
import { revokeActive } from './revoke-active.js'
import type { Statements } from './statements.js'
import { retrying } from './store-failure.js'
import { bumpSequence, explainInsertFailure, insertDraft, insertRow, storedToken } from './token-insert.js'
import { decodeToken, encodeIps } from './token-row.js'
import { writeTransaction } from './transaction.js'

/**
 * Stores a new token in one transaction (a first generation token's family is set to its own id). A
 * taken digest or predecessor fails as a `StoreConflictError` naming it.
 */
export async function insertToken(context: SqlContext, draft: TokenDraft): Promise<Token> {
  try {
    return await writeTransaction(context, (trx) => insertDraft(trx, context.dialect, draft))
  } catch (error) {
    throw await explainInsertFailure(context, error, draft)
  }
}

/**
 * Stores a token as given, id and family included; on PostgreSQL the id sequence is moved past it in
 * the same transaction. A taken id, digest or predecessor fails on the table's constraints, as a
 * `StoreConflictError` naming the key.
 */
export async function importStoredToken(context: SqlContext, token: Token): Promise<Token> {
  const { dialect, prefix } = context
  if (!Number.isSafeInteger(token.id) || token.id < 1) {
    throw new RangeError(`token id ${token.id} is not a positive integer`)
  }
  try {
    await writeTransaction(context, async (trx) => {
      await insertRow(trx, dialect, token, token.familyId, token.id)
      if (dialect.needsSequenceBump) await bumpSequence(trx, `${prefix}tokens`, token.id)
    })
  } catch (error) {
    throw await explainInsertFailure(context, error, token)
  }
  return storedToken(token, token.id, token.familyId)
}

/**
 * Revokes a token with one conditional write, so of N concurrent revocations exactly one reports
 * `revoked`. When it changed nothing, the token is either revoked already or missing: tokens are never
 * deleted nor un-revoked, so a look afterwards tells which.
 */
export async function revokeRow({ db, dialect }: SqlContext, id: number): Promise<RevokeOutcome> {
  const result = await revokeActive(db, dialect, id).executeTakeFirst()
  if (result.numUpdatedRows > 0n) return 'revoked'
  const row = await db.selectFrom('tokens').select('tokens.id').where('tokens.id', '=', id).executeTakeFirst()
  return row === undefined ? 'missing' : 'already_revoked'
}

/**
 * Records a use as `nextLastUsed` says, atomically. Without an `ip` (the hot path): one conditional
 * write, its condition built from the rule's own cutoff (`lastUsedCutoff`): the token was never used or
 * was last used at or before it, so concurrent requests in one window write once and an earlier `at`
 * never moves the value back. With an `ip`: the row is read, `nextLastUsed` decides, and the write is a
 * compare-and-set on the values read, so of concurrent uses at most one writes (the others are
 * dropped, as GitLab's lease drops them). A write that lost a race is run again (`retrying`).
 */
export function touchLastUsed(
  context: SqlContext,
  statements: Statements,
  id: number,
  at: Date,
  throttleMs: number,
  ip: string | null,
): Promise<boolean> {
  // A write that lost a race (a deadlock, a serialization failure, SQLite's busy timeout) did nothing:
  // it is run again, as a transaction is, so a use is recorded rather than failing the request.
  return retrying(() => touchOnce(context, statements, id, at, throttleMs, ip), context.dialect.isRetryable)
}

async function touchOnce(
  context: SqlContext,
  statements: Statements,
  id: number,
  at: Date,
  throttleMs: number,
  ip: string | null,
): Promise<boolean> {
  const { db, dialect } = context
  const cutoff = lastUsedCutoff(at, throttleMs)
  if (cutoff === null) return false
  if (ip === null) {
    const result = await statements.touch.run(db, [dialect.instant(at), id, dialect.instant(cutoff)])
    return (result.numAffectedRows ?? 0n) > 0n
  }
  const { rows } = await statements.byId.run(db, [id])
  const row = rows[0]
  if (row === undefined) return false
  const stored = decodeToken(row, context.userIdType)
  const next = nextLastUsed(stored, at, throttleMs, ip)
  if (next === null) return false
  const result = await db
    .updateTable('tokens')
    .set({
      last_used_at: next.lastUsedAt === null ? null : dialect.instant(next.lastUsedAt),
      last_used_ips: encodeIps(next.lastUsedIps),
    })
    .where('tokens.id', '=', id)
    .where('tokens.last_used_ips', '=', encodeIps(stored.lastUsedIps))
    .where((eb) =>
      stored.lastUsedAt === null
        ? eb('tokens.last_used_at', 'is', null)
        : eb('tokens.last_used_at', '<=', dialect.instant(stored.lastUsedAt)),
    )
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}
