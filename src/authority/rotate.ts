import { errAsync, okAsync, type ResultAsync, safeTry } from 'neverthrow'
import type { ErrorOf } from '../domain/errors.js'
import { rotateToken } from '../domain/rotate-token.js'
import type { Token } from '../domain/token.js'
import { parseDateParameter } from './date-parameter.js'
import { type AuthorityDeps, mintContext } from './deps.js'
import { toTokenInfo } from './events.js'
import type { Principal, TokenRef } from './principal.js'
import { type Feature, hasFeature } from './release.js'
import { requireScope, SELF_ROTATE_SCOPES, WRITE_SCOPES } from './scope-policy.js'
import { findAccessibleToken } from './token-access.js'

/**
 * A token together with its secret: the only answers that ever carry a secret (create, rotate).
 *
 * @example
 * ```ts
 * import type { IssuedToken } from 'patkit'
 * declare const issued: IssuedToken
 * issued.secret // 'glpat-...', shown once
 * ```
 */
export interface IssuedToken {
  readonly token: Token
  readonly secret: string
}

/**
 * Options of a rotation: `expiresAt` as `YYYY-MM-DD` (from release 16.6; ignored before).
 *
 * @example
 * ```ts
 * import type { RotateOptions } from 'patkit'
 * const options: RotateOptions = { expiresAt: '2030-01-31' }
 * ```
 */
export interface RotateOptions {
  readonly expiresAt?: string
}

/**
 * Every way `rotate` can fail.
 *
 * @example
 * ```ts
 * import type { RotateError } from 'patkit'
 * declare const e: RotateError
 * e.type
 * ```
 */
export type RotateError = ErrorOf<
  | 'insufficient_scope'
  | 'unauthorized'
  | 'not_found'
  | 'already_revoked'
  | 'invalid_expiry'
  | 'invalid_parameter'
  | 'feature_unavailable'
  | 'store_failure'
>

function requireFeature(
  deps: AuthorityDeps,
  feature: Feature,
): ResultAsync<void, ErrorOf<'feature_unavailable'>> {
  return hasFeature(feature, deps.release)
    ? okAsync(undefined)
    : errAsync({ type: 'feature_unavailable', feature, release: deps.release })
}

/**
 * Rotates a token by id (own, or any for an administrator; `api` scope) or `self` (`api` or
 * `self_rotate`): the old token is revoked and its successor stored in one atomic store call. Of
 * concurrent rotations of one token exactly one wins; the others fail with `already_revoked`.
 */
export function rotate(
  deps: AuthorityDeps,
  principal: Principal,
  ref: TokenRef,
  options: RotateOptions,
): ResultAsync<IssuedToken, RotateError> {
  return safeTry(async function* () {
    let target: Token
    if (ref === 'self') {
      yield* requireFeature(deps, 'self_rotate')
      yield* requireScope(principal, SELF_ROTATE_SCOPES)
      target = principal.token
    } else {
      yield* requireFeature(deps, 'rotate_by_id')
      yield* requireScope(principal, WRITE_SCOPES)
      target = yield* findAccessibleToken(deps, principal, ref)
    }
    // Before 16.6 the parameter does not exist, so it is ignored like any unknown parameter.
    const requested = hasFeature('rotate_expires_at', deps.release) ? options.expiresAt : undefined
    const expiresAt = yield* parseDateParameter(requested, 'expires_at')
    const now = deps.clock.now()
    const rotation = yield* rotateToken(
      target,
      expiresAt === undefined ? {} : { expiresAt },
      mintContext(deps, now),
    )
    const successor = yield* deps.store.rotate(target.id, rotation.successor)
    deps.emit({
      type: 'rotated',
      at: now,
      actorUserId: principal.user.id,
      previous: toTokenInfo(rotation.revoked),
      token: toTokenInfo(successor),
    })
    return okAsync({ token: successor, secret: rotation.secret })
  })
}
