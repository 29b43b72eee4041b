import type { TokenStore } from './token-store.js'

/**
 * A store with the `rotationReceipts` capability: both optional receipt methods of the port.
 *
 * @example
 * ```ts
 * import type { RotationReceiptStore } from 'patkit/store'
 * declare const keyDigest: string
 *
 * declare const store: RotationReceiptStore
 * await store.consumeRotationReceipt(7, keyDigest, now)
 * ```
 */
export type RotationReceiptStore = TokenStore &
  Required<Pick<TokenStore, 'rotateWithReceipt' | 'consumeRotationReceipt'>>

/**
 * Whether a store keeps rotation receipts, i.e. implements both `rotateWithReceipt` and
 * `consumeRotationReceipt`. One without the other is no capability: a receipt that can be written but
 * never consumed (or the reverse) would only make the `Idempotency-Key` header a promise not kept.
 *
 * @example
 * ```ts
 * import { supportsRotationReceipts } from 'patkit/store'
 * import { memoryStore } from 'patkit/memory'
 * supportsRotationReceipts(memoryStore()) // true
 * ```
 */
export function supportsRotationReceipts(store: TokenStore): store is RotationReceiptStore {
  return typeof store.rotateWithReceipt === 'function' && typeof store.consumeRotationReceipt === 'function'
}
