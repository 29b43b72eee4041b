import { err, ok, type Result } from 'neverthrow'
import { createReceiptSealer } from '../../domain/receipt-seal.js'
import { supportsRotationReceipts } from '../../store/rotation-receipts.js'
import type { AuthorityConfig } from './config.js'
import type { ReplayDeps } from './deps.js'

/**
 * The default replay window of a rotation sent with an `Idempotency-Key`: 10 minutes, enough for a
 * client's retries after a dropped connection (seconds to a few minutes), short enough that a sealed
 * live secret does not linger. It applies only to requests that carry the header.
 *
 * @example
 * ```ts
 * import { DEFAULT_ROTATION_REPLAY_WINDOW_MS } from 'patkit/authority'
 * DEFAULT_ROTATION_REPLAY_WINDOW_MS // 600000
 * ```
 */
export const DEFAULT_ROTATION_REPLAY_WINDOW_MS = 10 * 60 * 1000

/**
 * The `Idempotency-Key` support of a configuration: `null` when the window is 0 (the header is
 * ignored), else the window, the pepper's sealer and the store's receipt methods. A store without
 * receipts leaves `store` null, so the header is refused per request; but a window set explicitly on
 * such a store is a configuration mistake, reported with the option's name.
 */
export function resolveReplay(config: AuthorityConfig): Result<ReplayDeps | null, string> {
  const windowMs = config.rotationReplayWindowMs ?? DEFAULT_ROTATION_REPLAY_WINDOW_MS
  if (windowMs === 0) return ok(null)
  const store = supportsRotationReceipts(config.store) ? config.store : null
  if (store === null && config.rotationReplayWindowMs !== undefined) {
    return err(
      'invalid option rotationReplayWindowMs: the store keeps no rotation receipts (it lacks rotateWithReceipt or consumeRotationReceipt); set 0 or use a store that has them',
    )
  }
  return ok(Object.freeze({ windowMs, sealer: createReceiptSealer(config.pepper), store }))
}
