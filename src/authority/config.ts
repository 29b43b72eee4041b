import { z } from 'zod'
import type { Clock } from '../domain/clock.js'
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
  /** Prefix of new secrets; defaults to `glpat-`. */
  readonly tokenPrefix?: string
  /** The GitLab release to emulate; defaults to {@link LATEST_RELEASE}. */
  readonly release?: Release
  /** GitLab's `require_personal_access_token_expiry`; defaults to true. */
  readonly requireExpiry?: boolean
  /** Longest allowed lifetime in days; defaults to 365. */
  readonly maxLifetimeDays?: number
  /** `last_used_at` is written at most once per window; defaults to 10 minutes. */
  readonly lastUsedThrottleMs?: number
  /** Receives the audit trail. A listener that throws does not affect the operation. */
  readonly onEvent?: (event: AuthorityEvent) => void
}

/** Validates the scalar options at the edge, so a typo fails at start-up with the option's name. */
export const authorityOptionsSchema = z.object({
  tokenPrefix: z
    .string()
    .regex(/^[A-Za-z0-9_-]{0,20}$/, 'letters, digits, - and _, at most 20')
    .optional(),
  release: z
    .string()
    .regex(/^\d{1,3}\.\d{1,3}$/, 'a GitLab release such as 16.10')
    .optional(),
  requireExpiry: z.boolean().optional(),
  maxLifetimeDays: z.number().int().min(1).max(36_500).optional(),
  lastUsedThrottleMs: z.number().int().min(0).optional(),
})
