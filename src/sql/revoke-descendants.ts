import { tokensToRevokeOnReuse } from '../domain/reuse-detection.js'
import type { Token } from '../domain/token.js'
import type { SqlContext } from './options.js'
import { retrying } from './store-failure.js'
import { decodeInteger, decodeToken, tokenColumns } from './token-row.js'

/**
 * Reuse detection's write: revokes the tokens rotated from `tokenId` (later generations, through the
 * family index) that are active at `now`, in one transaction, and returns them revoked.
 *
 * The family is read with `FOR UPDATE` where the dialect has it (SQLite has a single writer), so the
 * tokens chosen are exactly the ones this call revokes, even without RETURNING: the final
 * `UPDATE ... WHERE id IN (...) AND revoked = false` cannot lose any of them to a concurrent writer.
 * The choice is the domain's rule (`tokensToRevokeOnReuse`), with the given token presented as revoked,
 * as the memory store does. A deadlock with a concurrent rotation is retried.
 *
 * @example
 * ```ts
 * const revoked = await revokeDescendants(context, 7, now)
 * ```
 */
export function revokeDescendants(
  { db, dialect }: SqlContext,
  tokenId: number,
  now: Date,
): Promise<readonly Token[]> {
  const once = () =>
    db.transaction().execute(async (trx): Promise<readonly Token[]> => {
      // Exclusive locks from the first read on: under SERIALIZABLE a plain read takes a shared lock,
      // and two detections upgrading shared locks to exclusive ones deadlock each other every time.
      let presentedQuery = trx
        .selectFrom('tokens')
        .select('tokens.family_id')
        .where('tokens.id', '=', tokenId)
      if (dialect.supportsForUpdate) presentedQuery = presentedQuery.forUpdate()
      const presented = await presentedQuery.executeTakeFirst()
      if (presented === undefined) return []
      let familyQuery = trx
        .selectFrom('tokens')
        .select(tokenColumns(dialect))
        .where('tokens.family_id', '=', decodeInteger(presented.family_id, 'family_id'))
        .orderBy('tokens.id')
      if (dialect.supportsForUpdate) familyQuery = familyQuery.forUpdate()
      const family = (await familyQuery.execute()).map(decodeToken)
      const self = family.find((token) => token.id === tokenId)
      if (self === undefined) return []
      const doomed = tokensToRevokeOnReuse({ ...self, revoked: true }, family, now).unwrapOr([])
      if (doomed.length === 0) return []
      await trx
        .updateTable('tokens')
        .set({ revoked: dialect.bool(true) })
        .where(
          'tokens.id',
          'in',
          doomed.map((token) => token.id),
        )
        .where('tokens.revoked', '=', dialect.bool(false))
        .execute()
      return doomed.map((token) => ({ ...token, revoked: true }))
    })
  return retrying(once, dialect.isRetryable)
}
