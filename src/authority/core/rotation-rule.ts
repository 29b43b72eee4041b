import { err, type Result } from 'neverthrow'
import { featureUnavailable, noToken } from '../../domain/error-constructors.js'
import type { ErrorOf } from '../../domain/errors.js'
import type { AuthorityDeps } from './deps.js'
import type { Actor, TokenRef } from './principal.js'
import { hasFeature } from './release.js'
import { requireScope, SELF_ROTATE_SCOPES, WRITE_SCOPES } from './scope-policy.js'

/** Why a principal may not rotate what `ref` addresses, whatever the token: the route's release gate or scope. */
export type RotationRuleError = ErrorOf<'feature_unavailable' | 'no_token' | 'insufficient_scope'>

/**
 * The release gate and scope rule of a rotation, in GitLab's order: `self` needs release 16.10
 * (`self_rotate`), a token, and `api` or `self_rotate`; an id needs `rotate_by_id` and `api`. The one
 * rule of `rotate` and of a replayed rotation (a retry is replayed only where its first request could
 * have rotated).
 */
export function checkRotation(
  deps: AuthorityDeps,
  principal: Actor,
  ref: TokenRef,
): Result<void, RotationRuleError> {
  if (ref === 'self') {
    if (!hasFeature('self_rotate', deps.release)) return err(featureUnavailable('self_rotate', deps.release))
    if (principal.token === null) return err(noToken())
    return requireScope(principal, SELF_ROTATE_SCOPES)
  }
  if (!hasFeature('rotate_by_id', deps.release)) return err(featureUnavailable('rotate_by_id', deps.release))
  return requireScope(principal, WRITE_SCOPES)
}
