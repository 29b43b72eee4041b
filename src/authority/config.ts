import { z } from 'zod'
import type { Clock } from '../domain/clock.js'
import type { TokenFormat } from '../domain/mint-secret.js'
import type { RandomSource } from '../domain/random.js'
import type { TokenStore } from '../store/token-store.js'
import type { UserDirectory } from '../store/user.js'
import type { AuthorityEvent } from './events.js'
import type { Release } from './release.js'

/**
 * Options of {@link createAuthority}. Only `store` and `pepper` are required.
 *
 * @example
 * ```ts
 * import { createAuthority } from 'patkit'
 * import { memoryStore } from 'patkit/memory'
 * const authority = createAuthority({ store: memoryStore(), pepper: process.env.PATKIT_PEPPER! })
 * ```
 */
export interface AuthorityConfig {
  readonly store: TokenStore
  /** Keys the HMAC of stored secrets. Keep it secret and stable: changing it invalidates every token. */
  readonly pepper: string | Uint8Array
  /** Where users come from; defaults to the store. */
  readonly users?: UserDirectory
  /** Defaults to `systemClock`. */
  readonly clock?: Clock
  /** Defaults to `cryptoRandom`. */
  readonly random?: RandomSource
  /** Prefix of new secrets (GitLab's instance token prefix); defaults to `glpat-`. */
  readonly tokenPrefix?: string
  /**
   * Format of new secrets: `routable` (GitLab's since 18.3, with a CRC-32 check) or `legacy` (20
   * characters). Defaults to the emulated release's. Secrets of any format (seeds) always work.
   */
  readonly tokenFormat?: TokenFormat
  /** The GitLab release to emulate; defaults to {@link LATEST_RELEASE}. */
  readonly release?: Release
  /** GitLab's `require_personal_access_token_expiry`; defaults to true. */
  readonly requireExpiry?: boolean
  /** Longest allowed lifetime in days; defaults to 365. */
  readonly maxLifetimeDays?: number
  /** `last_used_at` is written at most once per window; defaults to 10 minutes. */
  readonly lastUsedThrottleMs?: number
  /**
   * How long a rotation sent with an `Idempotency-Key` header can be replayed (the same old token and
   * the same key get the same successor, once), in milliseconds; defaults to 10 minutes, at most a
   * day. It only matters when a client sends the header: without it every rotation is GitLab's. `0`
   * turns the header off (ignored, as GitLab ignores it). Setting it above 0 on a store without the
   * `rotationReceipts` capability throws {@link AuthorityConfigError}. See docs/rotation.md.
   */
  readonly rotationReplayWindowMs?: number
  /** Receives the audit trail. A listener that throws does not affect the operation. */
  readonly onEvent?: (event: AuthorityEvent) => void
}

/**
 * Validates the scalar options at the edge, so a typo fails at start-up with the option's name.
 *
 * @example
 * ```ts
 * import { authorityOptionsSchema } from './config.js'
 *
 * authorityOptionsSchema.safeParse({ maxLifetimeDays: 0 }).success // false
 * ```
 */
export const authorityOptionsSchema = z.object({
  tokenPrefix: z
    .string()
    .regex(/^[A-Za-z0-9_-]{0,20}$/, 'letters, digits, - and _, at most 20')
    .optional(),
  tokenFormat: z.enum(['routable', 'legacy']).optional(),
  release: z
    .string()
    .regex(/^\d{1,3}\.\d{1,3}$/, 'a GitLab release such as 16.10')
    .optional(),
  requireExpiry: z.boolean().optional(),
  maxLifetimeDays: z.number().int().min(1).max(36_500).optional(),
  lastUsedThrottleMs: z.number().int().min(0).optional(),
  // A day at most: a receipt holds a sealed live secret, and the window is how long a stolen old
  // token and key could still obtain it.
  rotationReplayWindowMs: z.number().int().min(0).max(86_400_000).optional(),
})
