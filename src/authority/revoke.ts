import { errAsync, okAsync, type ResultAsync, safeTry } from 'neverthrow'
import type { ErrorOf } from '../domain/errors.js'
import type { Token } from '../domain/token.js'
import type { AuthorityDeps } from './deps.js'
import { toTokenInfo } from './events.js'
import type { Principal, TokenRef } from './principal.js'
import { hasFeature } from './release.js'
import { ANY_SCOPE, requireScope, WRITE_SCOPES } from './scope-policy.js'

/**
 * Every way `revoke` can fail.
 *
 * @example
 * ```ts
 * import type { RevokeError } from 'patkit'
 * declare const e: RevokeError
 * e.type
 * ```
 */
export type RevokeError = ErrorOf<
  'insufficient_scope' | 'not_found' | 'bad_request' | 'feature_unavailable' | 'store_failure'
>

/**
 * GitLab's revoke permission: an administrator, or the owner of a token that is not an impersonation
 * token. Anything else is refused with a bare 400, not 401/403.
 */
function mayRevoke(principal: Principal, token: Token): boolean {
  return principal.user.admin || (token.userId === principal.user.id && !token.impersonation)
}

/**
 * Revokes a token by id (`api` scope; an unknown id is 404 for everyone) or `self` (from 15.0 with
 * `api`, from 15.4 with any scope). Revoking a revoked token succeeds, as in GitLab.
 */
export function revoke(
  deps: AuthorityDeps,
  principal: Principal,
  ref: TokenRef,
): ResultAsync<void, RevokeError> {
  return safeTry(async function* () {
    let token: Token
    if (ref === 'self') {
      if (!hasFeature('delete_self', deps.release)) {
        return errAsync({
          type: 'feature_unavailable' as const,
          feature: 'delete_self',
          release: deps.release,
        })
      }
      yield* requireScope(
        principal,
        hasFeature('delete_self_any_scope', deps.release) ? ANY_SCOPE : WRITE_SCOPES,
      )
      token = principal.token
    } else {
      yield* requireScope(principal, WRITE_SCOPES)
      const found = yield* deps.store.findById(ref)
      if (found === null) return errAsync({ type: 'not_found' as const, entity: 'token' as const })
      token = found
    }
    if (!mayRevoke(principal, token)) return errAsync({ type: 'bad_request' as const })
    const outcome = yield* deps.store.revoke(token.id)
    if (outcome === 'missing') return errAsync({ type: 'not_found' as const, entity: 'token' as const })
    if (outcome === 'revoked') {
      deps.emit({
        type: 'revoked',
        at: deps.clock.now(),
        actorUserId: principal.user.id,
        token: toTokenInfo({ ...token, revoked: true }),
      })
    }
    return okAsync(undefined)
  })
}
