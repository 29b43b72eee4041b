import { err, ok, type Result, ResultAsync } from 'neverthrow'
import { badRequest, noToken } from '../../domain/error-constructors.js'
import type { ErrorOf } from '../../domain/errors.js'
import { parseIdempotencyKey } from '../../domain/idempotency-key.js'
import { rotateToken } from '../../domain/rotate-token.js'
import { receiptExpiry } from '../../domain/rotation-receipt.js'
import type { Token, TokenDraft } from '../../domain/token.js'
import type { TokenStore } from '../../store/token-store.js'
import { parseDateParameter } from './date-parameter.js'
import { type AuthorityDeps, mintContext, type ReplayDeps } from './deps.js'
import { toTokenInfo } from './events.js'
import { GRACE_RECEIPT_KEY, type GraceDeps } from './grace-window.js'
import type { IssuedToken } from './issued-token.js'
import type { Actor, TokenRef } from './principal.js'
import { hasFeature } from './release.js'
import { checkRotation } from './rotation-rule.js'
import { accessRule, checkToken, findAccessibleToken } from './token-access.js'

/**
 * The `Idempotency-Key` of a rotation and the secret that authenticated the request (the sealing key
 * of the receipt is derived from both, so only the same request can open it again).
 *
 * @example
 * ```ts
 * import type { RotationIdempotency } from 'patkit/authority'
 * const idempotency: RotationIdempotency = { key: crypto.randomUUID(), presentedSecret: secret }
 * ```
 */
export interface RotationIdempotency {
  readonly key: string
  readonly presentedSecret: string
}

/**
 * Options of a rotation: `expiresAt` as `YYYY-MM-DD` (from release 16.6; ignored before), and an
 * optional `idempotency` for a token rotating itself: the rotation then keeps a receipt, so that
 * `replayRotation` with the same old secret and key returns the same successor once (docs/rotation.md).
 *
 * @example
 * ```ts
 * import type { RotateOptions } from 'patkit/authority'
 * const options: RotateOptions = {
 *   expiresAt: '2030-01-31',
 *   idempotency: { key: 'b7f3c1e0-rotation-1', presentedSecret: secret },
 * }
 * ```
 */
export interface RotateOptions {
  readonly expiresAt?: string
  readonly idempotency?: RotationIdempotency
  /**
   * The secret that authenticated the request (the HTTP binding passes it). Used only with a grace
   * window (`rotationGraceMs`): a token rotating itself then keeps a grace receipt, so that a rotation
   * replayed with the same secret inside the window gets the same successor. Ignored otherwise.
   */
  readonly presentedSecret?: string
}

/**
 * Every way `rotate` can fail. `token_revoked`: the principal's token is in its grace period
 * (`rotationGraceMs`), which may not rotate another token (docs/rotation.md).
 */
export type RotateError = ErrorOf<
  | 'insufficient_scope'
  | 'unauthorized'
  | 'not_found'
  | 'already_revoked'
  | 'invalid_expiry'
  | 'invalid_parameter'
  | 'feature_unavailable'
  | 'bad_request'
  | 'no_token'
  | 'store_failure'
  | 'token_revoked'
>

/**
 * Rotates a token by id (own, or any for an administrator; `api` scope) or `self` (`api` or
 * `self_rotate`): the old token is revoked and its successor stored in one atomic store call. Of
 * concurrent rotations of one token exactly one wins; the others fail with `already_revoked`.
 *
 * With `options.idempotency` (and a replay window above 0), a token rotating itself (`self`, or its
 * own id) also stores a receipt in the same store call: the successor's secret sealed under a key of
 * the pepper, the presented secret and the key. Rotating another token by id keeps no receipt: the
 * caller's own token still works, so a lost answer costs it nothing it cannot redo.
 */
export function rotate(
  deps: AuthorityDeps,
  principal: Actor,
  ref: TokenRef,
  options: RotateOptions,
): ResultAsync<IssuedToken, RotateError> {
  return new ResultAsync(rotateFor(deps, principal, ref, options, deps.digest))
}

/**
 * {@link rotate}, with the digest of a presented secret from `digestOf`, and `presented`: the
 * principal's token as this request read it from the store, so that rotating it by its id reads it
 * no second time. The rotate request passes both, having digested and looked up its secret already.
 */
export async function rotateFor(
  deps: AuthorityDeps,
  principal: Actor,
  ref: TokenRef,
  options: RotateOptions,
  digestOf: (secret: string) => string,
  presented?: Token,
): Promise<Result<IssuedToken, RotateError>> {
  const allowed = checkRotation(deps, principal, ref)
  if (allowed.isErr()) return err(allowed.error)
  let target: Token
  if (ref === 'self') {
    if (principal.token === null) return err(noToken())
    target = principal.token
  } else {
    const found =
      presented !== undefined && presented.id === ref
        ? checkToken(presented, accessRule(principal))
        : await findAccessibleToken(deps, principal, ref)
    if (found.isErr()) return err(found.error)
    target = found.value
  }
  return rotateFound(deps, principal, target, options, digestOf)
}

/**
 * The rotation of a token already found and allowed (the checks on the caller are the route's): the
 * receipt it keeps, `expires_at`, the pure transition and the one atomic store call, then the event.
 * A successor secret whose digest is taken is minted again (at most `ROTATE_ATTEMPTS` times). `rotate`
 * and the rotations of other routes (a group's service account's token) share it.
 */
export async function rotateFound(
  deps: AuthorityDeps,
  principal: Actor,
  target: Token,
  options: RotateOptions,
  digestOf: (secret: string) => string,
): Promise<Result<IssuedToken, RotateError>> {
  const idempotency = idempotencyFor(deps, principal, target, options.idempotency, digestOf)
  if (idempotency.isErr()) return err(idempotency.error)
  const keyed =
    idempotency.value ?? graceReceiptFor(deps.grace, principal, target, options.presentedSecret, digestOf)
  // Before 16.6 the parameter does not exist, so it is ignored like any unknown parameter.
  const requested = hasFeature('rotate_expires_at', deps.release) ? options.expiresAt : undefined
  const expiresAt = parseDateParameter(requested, 'expires_at')
  if (expiresAt.isErr()) return err(expiresAt.error)
  const now = deps.clock.now()
  const ctx = mintContext(deps, now)
  // A successor's secret whose digest is already stored (a seeded random source replaying its sequence
  // over a kept database) is drawn again: the store refused the whole rotation (old token, successor
  // and receipt alike), so the next attempt is a rotation of the same still active token.
  for (let attempt = 1; ; attempt++) {
    const rotation = rotateToken(
      target,
      expiresAt.value === undefined ? {} : { expiresAt: expiresAt.value },
      ctx,
    )
    if (rotation.isErr()) return err(rotation.error)
    const successor = await storeRotation(deps, target, rotation.value, keyed, now)
    if (successor.isErr()) {
      const failure = successor.error
      if (failure.type === 'store_failure' && failure.conflict === 'digest' && attempt < ROTATE_ATTEMPTS)
        continue
      return err(failure)
    }
    deps.emit({
      type: 'rotated',
      at: now,
      actorUserId: principal.user.id,
      previous: toTokenInfo(rotation.value.revoked),
      token: toTokenInfo(successor.value),
    })
    return ok({ token: successor.value, secret: rotation.value.secret })
  }
}

/**
 * Successor secrets {@link rotateFound} draws for one rotation while each one's digest is already
 * stored (as `mint` does); then the `store_failure` with `conflict: 'digest'` is the answer.
 */
const ROTATE_ATTEMPTS = 8

/** The one atomic store call of a rotation: with its receipt (the successor's secret sealed) when keyed. */
async function storeRotation(
  deps: AuthorityDeps,
  target: Token,
  rotation: { readonly successor: TokenDraft; readonly secret: string },
  keyed: KeyedRotation | null,
  now: Date,
) {
  if (keyed === null) return deps.store.rotate(target.id, rotation.successor)
  return keyed.store.rotateWithReceipt(target.id, rotation.successor, {
    keyDigest: keyed.sealer.keyDigest(keyed.presentedSecret, keyed.key),
    sealedSecret: await keyed.sealer.seal(
      { presentedSecret: keyed.presentedSecret, idempotencyKey: keyed.key, tokenId: target.id },
      rotation.secret,
      deps.random,
    ),
    expiresAt: receiptExpiry(now, keyed.windowMs),
  })
}

/** A rotation that keeps a receipt: the checked key, the presented secret, and where the receipt goes. */
interface KeyedRotation extends Omit<ReplayDeps, 'store'> {
  readonly store: TokenStore
  readonly key: string
  readonly presentedSecret: string
}

/**
 * The grace receipt of a rotation (the grace window on, no Idempotency receipt): only for a token
 * rotating itself with its presented secret, which seals the receipt; a presented secret that is not
 * the principal's token keeps none (its holder could not open it).
 */
function graceReceiptFor(
  grace: GraceDeps | null,
  principal: Actor,
  target: Token,
  presentedSecret: string | undefined,
  digestOf: (secret: string) => string,
): KeyedRotation | null {
  if (grace === null || presentedSecret === undefined || principal.token === null) return null
  if (target.id !== principal.token.id || digestOf(presentedSecret) !== principal.token.digest) return null
  return { ...grace, key: GRACE_RECEIPT_KEY, presentedSecret }
}

/**
 * Whether this rotation keeps a receipt: null for none (no key, the header turned off, or another
 * token rotated by id); an error for an invalid key, or a presented secret
 * that did not authenticate the principal (a caller's mistake that would make the receipt useless).
 */
function idempotencyFor(
  deps: AuthorityDeps,
  principal: Actor,
  target: Token,
  requested: RotationIdempotency | undefined,
  digestOf: (secret: string) => string,
): Result<KeyedRotation | null, ErrorOf<'invalid_parameter' | 'bad_request'>> {
  const replay = deps.replay
  if (requested === undefined || replay === null) return ok(null)
  const key = parseIdempotencyKey(requested.key)
  if (key.isErr()) return err(key.error)
  if (principal.token === null || digestOf(requested.presentedSecret) !== principal.token.digest) {
    return err(badRequest('the presented secret is not the principal’s token'))
  }
  if (target.id !== principal.token.id) return ok(null)
  return ok({ ...replay, key: key.value, presentedSecret: requested.presentedSecret })
}
