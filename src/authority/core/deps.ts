import type { ResultAsync } from 'neverthrow'
import type { Clock } from '../../domain/clock.js'
import type { MintContext } from '../../domain/context.js'
import type { StoreFailure } from '../../domain/errors.js'
import type { ExpiryPolicy } from '../../domain/expiry.js'
import type { TokenFormat } from '../../domain/mint-secret.js'
import type { RandomSource } from '../../domain/random.js'
import type { ReceiptSealer } from '../../domain/receipt-seal.js'
import type { Digester } from '../../domain/secret.js'
import type { UserId, UserIdType } from '../../domain/user-id.js'
import type { TokenStore } from '../../store/token-store.js'
import type { User, UserDirectory } from '../../store/user.js'
import type { AuthorityEvent } from './events.js'
import type { GraceDeps } from './grace-window.js'
import type { Release } from './release.js'

/**
 * The `Idempotency-Key` support of an authority whose replay window is above 0: the window, the
 * sealer of its pepper, and the store that keeps the receipts.
 */
export interface ReplayDeps {
  readonly windowMs: number
  readonly sealer: ReceiptSealer
  readonly store: TokenStore
}

/**
 * What every use case receives: the resolved configuration, frozen at construction.
 */
export interface AuthorityDeps {
  readonly store: TokenStore
  readonly users: UserDirectory
  /**
   * Whether `users` is the store itself (no separate directory was configured): only then may
   * authenticate read a token and its owner with the store's joined `findByDigestWithUser`.
   */
  readonly usersFromStore: boolean
  /** The `userIdType` option: `'integer'` (GitLab's, the default) or `'string'`. */
  readonly userIdType: UserIdType
  /** Finds a user by id of that kind (see `userLookup`); an id of the other kind finds no one. */
  readonly userById: (id: UserId) => ResultAsync<User | null, StoreFailure>
  readonly clock: Clock
  readonly random: RandomSource
  readonly prefix: string
  readonly format: TokenFormat
  readonly digest: Digester
  readonly release: Release
  readonly expiry: ExpiryPolicy
  /** The scopes a token may carry: the `scopes` option, or GitLab's. */
  readonly scopes: readonly string[]
  /** The permissions a fine-grained token may carry: the `permissions` option; empty without it. */
  readonly permissions: readonly string[]
  /** The `granularEnforcement` option; `null` without it. */
  readonly granularEnforcement: {
    readonly enforcedFrom: (topLevelGroupId: number) => string | null
    readonly anyEnforced?: () => boolean
  } | null
  /** GitLab's Admin Mode setting: administrators act as such only with an `admin_mode` token. */
  readonly adminMode: boolean
  readonly lastUsedThrottleMs: number
  /** `null` when `rotationReplayWindowMs` is 0: the header is ignored. */
  readonly replay: ReplayDeps | null
  /** `null` when `rotationGraceMs` is 0 (the default): GitLab's behaviour. */
  readonly grace: GraceDeps | null
  readonly emit: (event: AuthorityEvent) => void
  /** The `sealHookToken` option, or the peppered digest (never opened) without one. */
  readonly sealHookToken: (token: string) => string
}

/**
 * The context the pure transitions need at one instant.
 */
export function mintContext(deps: AuthorityDeps, now: Date): MintContext {
  return {
    now,
    random: deps.random,
    prefix: deps.prefix,
    format: deps.format,
    digest: deps.digest,
    expiry: deps.expiry,
    scopes: deps.scopes,
  }
}
