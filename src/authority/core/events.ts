import type { StoreFailure } from '../../domain/errors.js'
import type { Token } from '../../domain/token.js'
import type { UserId } from '../../domain/user-id.js'

/**
 * A token as events show it: every field except the digest. No event ever carries a secret.
 *
 * @example
 * ```ts
 * import type { TokenInfo } from 'patkit'
 * declare const info: TokenInfo
 * info.id
 * ```
 */
export type TokenInfo = Omit<Token, 'digest'>

/**
 * The audit trail of an authority, delivered to the `onEvent` option after each change is stored.
 * `actorUserId` is the user whose token authenticated the request.
 *
 * @example
 * ```ts
 * import { createAuthority, type AuthorityEvent } from 'patkit'
 * const events: AuthorityEvent[] = []
 * createAuthority({ store, pepper, onEvent: (e) => events.push(e) })
 * ```
 */
export type AuthorityEvent =
  | {
      readonly type: 'created'
      readonly at: Date
      readonly actorUserId: UserId | null
      readonly token: TokenInfo
    }
  | {
      readonly type: 'rotated'
      readonly at: Date
      readonly actorUserId: UserId
      readonly previous: TokenInfo
      readonly token: TokenInfo
    }
  | { readonly type: 'revoked'; readonly at: Date; readonly actorUserId: UserId; readonly token: TokenInfo }
  | {
      readonly type: 'reuse_detected'
      readonly at: Date
      /** The revoked token that was presented again. */
      readonly presented: TokenInfo
      /** The tokens this detection revoked (later generations that were still active). */
      readonly revoked: readonly TokenInfo[]
    }
  | { readonly type: 'used'; readonly at: Date; readonly token: TokenInfo }
  | {
      /**
       * The store could not record a use of `token` (`touchLastUsed` failed, after the store's own
       * retries of a lost race): the write was dropped and the request went on, authenticated, since a
       * last-used write never fails one. `lastUsedAt` and `lastUsedIps` miss this use.
       */
      readonly type: 'last_used_write_failed'
      readonly at: Date
      readonly token: TokenInfo
      readonly failure: StoreFailure
    }
  | {
      /**
       * A retried rotation (`Idempotency-Key`) was answered with the successor a rotation had already
       * stored: its secret left the library a second time, and for the last time.
       */
      readonly type: 'rotation_replayed'
      readonly at: Date
      readonly actorUserId: UserId
      /** The rotated token, presented again. */
      readonly previous: TokenInfo
      readonly token: TokenInfo
    }
  | {
      readonly type: 'token_expiring'
      readonly at: Date
      readonly token: TokenInfo
      /** The threshold passed: the token expires within this many days (GitLab's 60/30/7-day notices). */
      readonly days: 60 | 30 | 7
    }

/** Strips the digest from a token, for events and logs. */
export function toTokenInfo(token: Token): TokenInfo {
  const { digest: _digest, ...info } = token
  return info
}
