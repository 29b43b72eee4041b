import { errAsync, okAsync, type ResultAsync, safeTry } from 'neverthrow'
import type { ErrorOf } from '../domain/errors.js'
import { isExpired } from '../domain/token.js'
import type { AuthorityDeps } from './deps.js'
import { toTokenInfo } from './events.js'
import type { Principal } from './principal.js'
import { hasFeature } from './release.js'

/**
 * How a request presents its token. `rotateRequest` marks a rotation (`/:id/rotate` or
 * `/self/rotate`): only then does a revoked token trigger reuse detection.
 */
export interface AuthenticateOptions {
  readonly rotateRequest?: boolean
}

/** Every way authentication can fail. */
export type AuthenticateError = ErrorOf<
  'unauthenticated' | 'token_expired' | 'token_revoked' | 'store_failure'
>

/**
 * Secret to principal, in GitLab's order: unknown token or unusable user, then expired, then
 * revoked. A revoked token presented to a rotation revokes the tokens rotated from it (reuse
 * detection) and the call still fails as revoked. Success records `lastUsedAt`, throttled.
 */
export function authenticate(
  deps: AuthorityDeps,
  secret: string | null | undefined,
  options: AuthenticateOptions,
): ResultAsync<Principal, AuthenticateError> {
  if (secret === null || secret === undefined || secret === '') return errAsync({ type: 'unauthenticated' })
  return safeTry(async function* () {
    const now = deps.clock.now()
    const token = yield* deps.store.findByDigest(deps.digest(secret))
    if (token === null) return errAsync({ type: 'unauthenticated' as const })
    const user = yield* deps.users.findUser(token.userId)
    if (user === null || user.blocked) return errAsync({ type: 'unauthenticated' as const })
    if (isExpired(token, now)) return errAsync({ type: 'token_expired' as const, tokenId: token.id })
    if (token.revoked) {
      if (options.rotateRequest === true && hasFeature('reuse_detection', deps.release)) {
        const revoked = yield* deps.store.revokeDescendants(token.id, now)
        deps.emit({
          type: 'reuse_detected',
          at: now,
          presented: toTokenInfo(token),
          revoked: revoked.map(toTokenInfo),
        })
      }
      return errAsync({ type: 'token_revoked' as const, tokenId: token.id })
    }
    const touched = yield* deps.store.touchLastUsed(token.id, now, deps.lastUsedThrottleMs)
    const current = touched ? { ...token, lastUsedAt: now } : token
    if (touched) deps.emit({ type: 'used', at: now, token: toTokenInfo(current) })
    return okAsync({ user, token: current })
  })
}
