import type { Token } from './token.js'
import { isActive } from './token.js'

/**
 * What a rotation named by an `Idempotency-Key` leaves beside the successor, so that the same request
 * retried can be answered with the same successor: a digest of the key (never the key), the
 * successor's secret sealed under a key the store never holds (see `createReceiptSealer`), and the end
 * of the replay window.
 *
 * @example
 * ```ts
 * import type { RotationReceiptDraft } from 'patkit/store'
 * declare const keyDigest: string // the sealer's digest of the presented secret and the key
 * declare const sealedSecret: string // the successor's secret, sealed
 *
 * const draft: RotationReceiptDraft = { keyDigest, sealedSecret, expiresAt: new Date('2030-01-01T00:10:00Z') }
 * ```
 */
export interface RotationReceiptDraft {
  readonly keyDigest: string
  readonly sealedSecret: string
  /** The first instant at which the receipt can no longer be redeemed. */
  readonly expiresAt: Date
}

/**
 * A stored receipt: the draft, the rotated token and the successor the rotation stored.
 *
 * @example
 * ```ts
 * import type { RotationReceipt } from 'patkit/store'
 * declare const receipt: RotationReceipt
 * receipt.tokenId // the token that was rotated (and is now revoked)
 * ```
 */
export interface RotationReceipt extends RotationReceiptDraft {
  readonly tokenId: number
  readonly successorId: number
}

/**
 * What a store hands back when it consumes a receipt: the successor as it is now, and the sealed
 * secret only the retrying client's request can open.
 *
 * @example
 * ```ts
 * import type { RedeemedReceipt } from 'patkit/store'
 * declare const redeemed: RedeemedReceipt
 * redeemed.successor.lastUsedAt // null: a successor that was used is never handed out again
 * ```
 */
export interface RedeemedReceipt {
  readonly successor: Token
  readonly sealedSecret: string
}

/** The end of a replay window that opens at `now`. */
export function receiptExpiry(now: Date, windowMs: number): Date {
  return new Date(now.getTime() + windowMs)
}

/**
 * Whether a receipt may still be redeemed at `now`: inside its window, and its successor is the one the
 * rotation stored, still active and never used. Anything else means the successor reached its client
 * (it was used), or the family moved on (it was rotated or revoked), so presenting the old token again
 * is reuse, and reuse detection must run exactly as without a receipt.
 *
 * @example
 * ```ts
 * import type { Token } from 'patkit'
 * import { isRedeemable, type RotationReceipt } from 'patkit/store'
 * declare const receipt: RotationReceipt
 * declare const successor: Token | null
 *
 * isRedeemable(receipt, successor, now) // false once successor.lastUsedAt is set
 * ```
 */
export function isRedeemable(
  receipt: Pick<RotationReceipt, 'successorId' | 'expiresAt'>,
  successor: Token | null,
  now: Date,
): boolean {
  return (
    successor !== null &&
    successor.id === receipt.successorId &&
    now.getTime() < receipt.expiresAt.getTime() &&
    successor.lastUsedAt === null &&
    isActive(successor, now)
  )
}
