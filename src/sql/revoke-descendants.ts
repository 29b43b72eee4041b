import { tokensToRevokeOnReuse } from '../domain/reuse-detection.js'
import type { Token } from '../domain/token.js'
import type { SqlContext } from './options.js'
import { revokeActive } from './revoke-active.js'
import type { Statements } from './statements.js'
import { findTokenBy } from './token-reads.js'
import { decodeToken, tokenColumns } from './token-row.js'
import { writeTransaction } from './transaction.js'

/**
 * Reuse detection's write: revokes the tokens rotated from `tokenId` (later generations, through the
 * family index) that are active at `now`, in one transaction, and returns them revoked.
 *
 * The family is the unit of locking. The transaction first locks the family's root row, as every
 * rotation does before its own writes, so a detection and a rotation of any member never interleave:
 * either the rotation committed first, and the family read that follows (a new statement, so a new
 * snapshot under READ COMMITTED) sees its successor, or the detection commits first and the rotation
 * then finds its token revoked. The family's rows are then read `FOR UPDATE`, so the tokens chosen are
 * exactly the ones this call revokes, even without RETURNING. SQLite has no row locks: there the
 * transaction begins IMMEDIATE and holds the database's write lock throughout. The choice is the
 * domain's rule (`tokensToRevokeOnReuse`), with the given token presented as revoked, as the memory
 * store does. A deadlock or serialization failure is retried from the start.
 */
export async function revokeDescendants(
  context: SqlContext,
  statements: Statements,
  tokenId: number,
  now: Date,
): Promise<readonly Token[]> {
  const { dialect } = context
  // A family id never changes, so it is read before the transaction, lock-free (inside it, MySQL's
  // SERIALIZABLE would take a shared lock that racing detections then fail to upgrade).
  const presented = await findTokenBy(context, statements, 'id', tokenId)
  if (presented === null) return []
  const { familyId } = presented
  return writeTransaction(context, async (trx): Promise<readonly Token[]> => {
    if (statements.lockFamily !== null) await statements.lockFamily.run(trx, [familyId])
    let familyQuery = trx
      .selectFrom('tokens')
      .select(tokenColumns(dialect))
      .where('tokens.family_id', '=', familyId)
      .orderBy('tokens.id')
    if (dialect.supportsForUpdate) familyQuery = familyQuery.forUpdate()
    const family = (await familyQuery.execute()).map((row) => decodeToken(row, context.userIdType))
    const self = family.find((token) => token.id === tokenId)
    if (self === undefined) return []
    const doomed = tokensToRevokeOnReuse({ ...self, revoked: true }, family, now).unwrapOr([])
    if (doomed.length === 0) return []
    await revokeActive(
      trx,
      dialect,
      doomed.map((token) => token.id),
    ).execute()
    return doomed.map((token) => ({ ...token, revoked: true }))
  })
}
