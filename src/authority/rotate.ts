import { type Err, err, ok, type Result, ResultAsync } from 'neverthrow'
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
  return new ResultAsync(rotateFor(deps, principal, ref, options))
}

function featureUnavailable(
  deps: AuthorityDeps,
  feature: Feature,
): Err<never, ErrorOf<'feature_unavailable'>> {
  return err({ type: 'feature_unavailable', feature, release: deps.release })
}

// A plain async function rather than a `safeTry` generator, as authenticate is: neverthrow's generator
// helpers were a measurable share of a rotation's client CPU on SQL (docs/benchmarks.md, target 6).
// The steps, their order and their errors are the same.
async function rotateFor(
  deps: AuthorityDeps,
  principal: Principal,
  ref: TokenRef,
  options: RotateOptions,
): Promise<Result<IssuedToken, RotateError>> {
  let target: Token
  if (ref === 'self') {
    if (!hasFeature('self_rotate', deps.release)) return featureUnavailable(deps, 'self_rotate')
    const scoped = requireScope(principal, SELF_ROTATE_SCOPES)
    if (scoped.isErr()) return err(scoped.error)
    target = principal.token
  } else {
    if (!hasFeature('rotate_by_id', deps.release)) return featureUnavailable(deps, 'rotate_by_id')
    const scoped = requireScope(principal, WRITE_SCOPES)
    if (scoped.isErr()) return err(scoped.error)
    const found = await findAccessibleToken(deps, principal, ref)
    if (found.isErr()) return err(found.error)
    target = found.value
  }
  // Before 16.6 the parameter does not exist, so it is ignored like any unknown parameter.
  const requested = hasFeature('rotate_expires_at', deps.release) ? options.expiresAt : undefined
  const expiresAt = parseDateParameter(requested, 'expires_at')
  if (expiresAt.isErr()) return err(expiresAt.error)
  const now = deps.clock.now()
  const rotation = rotateToken(
    target,
    expiresAt.value === undefined ? {} : { expiresAt: expiresAt.value },
    mintContext(deps, now),
  )
  if (rotation.isErr()) return err(rotation.error)
  const successor = await deps.store.rotate(target.id, rotation.value.successor)
  if (successor.isErr()) return err(successor.error)
  deps.emit({
    type: 'rotated',
    at: now,
    actorUserId: principal.user.id,
    previous: toTokenInfo(rotation.value.revoked),
    token: toTokenInfo(successor.value),
  })
  return ok({ token: successor.value, secret: rotation.value.secret })
}
