import { err, ok, type Result, ResultAsync } from 'neverthrow'
import { badRequest, featureUnavailable, noToken, notFound } from '../domain/error-constructors.js'
import type { ErrorOf } from '../domain/errors.js'
import type { Token } from '../domain/token.js'
import type { AuthorityDeps } from './deps.js'
import { toTokenInfo } from './events.js'
import { type Actor, actsAsAdmin, type TokenRef } from './principal.js'
import { hasFeature } from './release.js'
import { ANY_SCOPE, requireScope, WRITE_SCOPES } from './scope-policy.js'

/**
 * Every way `revoke` can fail. `token_revoked`: the principal's token is in its grace period
 * (`rotationGraceMs`), which may not revoke (docs/rotation.md).
 *
 * @example
 * ```ts
 * import type { RevokeError } from 'patkit'
 * declare const e: RevokeError
 * e.type
 * ```
 */
export type RevokeError = ErrorOf<
  | 'insufficient_scope'
  | 'not_found'
  | 'bad_request'
  | 'feature_unavailable'
  | 'no_token'
  | 'store_failure'
  | 'token_revoked'
>

/**
 * GitLab's revoke permission: an administrator, or the owner of a token that is not an impersonation
 * token. Anything else is refused with a bare 400, not 401/403.
 */
function mayRevoke(principal: Actor, token: Token): boolean {
  return actsAsAdmin(principal) || (token.userId === principal.user.id && !token.impersonation)
}

/**
 * Revokes a token by id (`api` scope; an unknown id is 404 for everyone) or `self` (from 15.0 with
 * `api`, from 15.4 with any scope). Revoking a revoked token succeeds, as in GitLab.
 *
 * @example
 * ```ts
 * import { revoke } from './revoke.js'
 * import type { AuthorityDeps } from './deps.js'
 * declare const deps: AuthorityDeps
 *
 * await revoke(deps, principal, 'self')
 * ```
 */
export function revoke(deps: AuthorityDeps, principal: Actor, ref: TokenRef): ResultAsync<void, RevokeError> {
  return new ResultAsync(revokeFor(deps, principal, ref))
}

async function revokeFor(
  deps: AuthorityDeps,
  principal: Actor,
  ref: TokenRef,
): Promise<Result<void, RevokeError>> {
  let token: Token
  if (ref === 'self') {
    if (principal.token === null) return err(noToken())
    if (!hasFeature('delete_self', deps.release)) return err(featureUnavailable('delete_self', deps.release))
    const scoped = requireScope(
      principal,
      hasFeature('delete_self_any_scope', deps.release) ? ANY_SCOPE : WRITE_SCOPES,
    )
    if (scoped.isErr()) return err(scoped.error)
    token = principal.token
  } else {
    const scoped = requireScope(principal, WRITE_SCOPES)
    if (scoped.isErr()) return err(scoped.error)
    const found = await deps.store.findById(ref)
    if (found.isErr()) return err(found.error)
    if (found.value === null) return err(notFound('token'))
    token = found.value
  }
  if (!mayRevoke(principal, token)) return err(badRequest())
  const outcome = await deps.store.revoke(token.id)
  if (outcome.isErr()) return err(outcome.error)
  if (outcome.value === 'missing') return err(notFound('token'))
  if (outcome.value === 'revoked') {
    deps.emit({
      type: 'revoked',
      at: deps.clock.now(),
      actorUserId: principal.user.id,
      token: toTokenInfo({ ...token, revoked: true }),
    })
  }
  return ok(undefined)
}
