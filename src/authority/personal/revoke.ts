import { err, ok, type Result, ResultAsync } from 'neverthrow'
import { badRequest, featureUnavailable, noToken, notFound } from '../../domain/error-constructors.js'
import type { ErrorOf } from '../../domain/errors.js'
import type { Token } from '../../domain/token.js'
import type { AuthorityDeps } from '../core/deps.js'
import type { Actor, TokenRef } from '../core/principal.js'
import { hasFeature } from '../core/release.js'
import { revokeStored } from '../core/revoke-stored.js'
import { ANY_SCOPE, requireScope, WRITE_SCOPES } from '../core/scope-policy.js'
import { findRevocableToken, mayRevoke } from '../core/token-access.js'

/**
 * Every way `revoke` can fail. `token_revoked`: the principal's token is in its grace period
 * (`rotationGraceMs`), which may not revoke (docs/rotation.md).
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
 * Revokes a token by id (`api` scope; an unknown id is 404 for everyone, another user's token or
 * one's own impersonation token a bare 400, see token-access.ts) or `self` (from 15.0 with `api`,
 * from 15.4 with any scope). Revoking a revoked token succeeds, as in GitLab.
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
    // A non-administrator's own impersonation token: GitLab's bare 400, as by id.
    if (!mayRevoke(principal, principal.token)) return err(badRequest())
    token = principal.token
  } else {
    const scoped = requireScope(principal, WRITE_SCOPES)
    if (scoped.isErr()) return err(scoped.error)
    const found = await findRevocableToken(deps, principal, ref)
    if (found.isErr()) return err(found.error)
    token = found.value
  }
  const outcome = await revokeStored(deps, principal.user.id, token)
  if (outcome.isErr()) return err(outcome.error)
  if (outcome.value === 'missing') return err(notFound('token'))
  return ok(undefined)
}
