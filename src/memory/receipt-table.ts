import { isRedeemable, type RedeemedReceipt, type RotationReceipt } from '../domain/rotation-receipt.js'
import type { Token } from '../domain/token.js'

/**
 * The memory store's rotation receipts, by rotated token id (a token is rotated at most once, so it
 * has at most one). Synchronous, like the token table: the memory store calls it inside the same
 * uninterrupted step as the token writes, which is what makes `rotateWithReceipt` and
 * `consumeRotationReceipt` atomic.
 */
interface ReceiptTable {
  put(receipt: RotationReceipt): void
  /** Removes and returns the receipt when its digest matches and it is redeemable at `now`. */
  take(
    tokenId: number,
    keyDigest: string,
    now: Date,
    findToken: (id: number) => Token | null,
  ): RedeemedReceipt | null
  /** Deletes every receipt whose `expiresAt` is at or before `at`. */
  prune(at: Date): void
}

/** An empty {@link ReceiptTable}. */
export function receiptTable(): ReceiptTable {
  const receipts = new Map<number, RotationReceipt>()
  return {
    put(receipt) {
      receipts.set(receipt.tokenId, Object.freeze({ ...receipt, expiresAt: new Date(receipt.expiresAt) }))
    },
    take(tokenId, keyDigest, now, findToken) {
      const receipt = receipts.get(tokenId)
      if (receipt === undefined || receipt.keyDigest !== keyDigest) return null
      const successor = findToken(receipt.successorId)
      // A receipt that is not redeemable now never becomes so again (windows only close, tokens are
      // never un-revoked or un-used): it stays until pruned, and nothing reads it.
      if (!isRedeemable(receipt, successor, now) || successor === null) return null
      receipts.delete(tokenId)
      return { successor, sealedSecret: receipt.sealedSecret }
    },
    prune(at) {
      const instant = at.getTime()
      for (const [tokenId, receipt] of receipts) {
        if (receipt.expiresAt.getTime() <= instant) receipts.delete(tokenId)
      }
    },
  }
}
