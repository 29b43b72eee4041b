import { createReceiptSealer } from '../../domain/receipt-seal.js'
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
 * ignored), else the window, the pepper's sealer and the store that keeps the receipts.
 */
export function resolveReplay(config: AuthorityConfig): ReplayDeps | null {
  const windowMs = config.rotationReplayWindowMs ?? DEFAULT_ROTATION_REPLAY_WINDOW_MS
  if (windowMs === 0) return null
  return Object.freeze({ windowMs, sealer: createReceiptSealer(config.pepper), store: config.store })
}
