import { err, ok, type Result, ResultAsync } from 'neverthrow'
import type { StoreFailure } from '../domain/errors.js'
import { parseIdempotencyKey } from '../domain/idempotency-key.js'
import type { ReceiptSealer } from '../domain/receipt-seal.js'
import { isExpired } from '../domain/token.js'
import type { RotationReceiptStore } from '../store/rotation-receipts.js'
import { findForDecision } from './authenticate.js'
import type { AuthorityDeps } from './deps.js'
import { toTokenInfo } from './events.js'
import { GRACE_RECEIPT_KEY } from './grace-window.js'
import type { IssuedToken } from './issued-token.js'
import type { Principal, TokenRef } from './principal.js'
import { hasFeature } from './release.js'
import { requireScope, SELF_ROTATE_SCOPES, WRITE_SCOPES } from './scope-policy.js'

/**
 * Every way `replayRotation` can fail: only the store. Everything else is `null`, "no replay".
 *
 * @example
 * ```ts
 * import type { ReplayError } from './replay-rotation.js'
 * declare const e: ReplayError
 * e.type // 'store_failure'
 * ```
 */
export type ReplayError = StoreFailure

/**
 * Answers a retried rotation: when `secret` is a token that was rotated with this `Idempotency-Key`
 * (through `rotate` with `idempotency`), and the receipt is redeemable (inside the replay window,
 * the successor still active and never used), returns the same successor with the same secret, and
 * spends the receipt: of concurrent replays exactly one gets it. Otherwise `null`: the caller goes on
 * as without a key (`authenticate` with `rotateRequest`), so reuse detection runs exactly as before.
 *
 * A replay happens only where the request would otherwise reach reuse detection: the token is known,
 * its owner exists and is not blocked, it is revoked but not expired, the route exists in the emulated
 * release, its scopes allow the route, and `ref` is `self` or the token's own id. An invalid key, a
 * replay window of 0 and a store without receipts all give `null` (`rotate` reports them).
 *
 * With `idempotencyKey` `null` (no header), the grace window's receipt is looked for instead: a token
 * that rotated itself less than `rotationGraceMs` ago gets the same successor, once, on the same terms.
 * With no grace window that is always `null`, without a store call.
 *
 * @example
 * ```ts
 * import { replayRotation } from './replay-rotation.js'
 * import type { AuthorityDeps } from './deps.js'
 * declare const deps: AuthorityDeps
 * declare const idempotencyKey: string
 *
 * const replayed = await replayRotation(deps, secret, 'self', idempotencyKey) // ok(null): no replay
 * ```
 */
export function replayRotation(
  deps: AuthorityDeps,
  secret: string | null | undefined,
  ref: TokenRef,
  idempotencyKey: string | null,
): ResultAsync<IssuedToken | null, ReplayError> {
  return new ResultAsync(replayFor(deps, secret, ref, idempotencyKey))
}

async function replayFor(
  deps: AuthorityDeps,
  secret: string | null | undefined,
  ref: TokenRef,
  idempotencyKey: string | null,
): Promise<Result<IssuedToken | null, ReplayError>> {
  const replay = receiptsFor(deps, idempotencyKey)
  if (replay === null) return ok(null)
  if (secret === null || secret === undefined || secret === '') return ok(null)
  const key = replay.key
  const now = deps.clock.now()
  const digest = deps.digest(secret)
  const found = await findForDecision(deps, digest)
  if (found.isErr()) return err(found.error)
  if (found.value === null) return ok(null)
  const { token, user } = found.value
  if (user === null || user.blocked || isExpired(token, now) || !token.revoked) return ok(null)
  if (!routeAllows({ user, token }, ref, deps)) return ok(null)
  const consumed = await replay.store.consumeRotationReceipt(
    token.id,
    replay.sealer.keyDigest(secret, key),
    now,
  )
  if (consumed.isErr()) return err(consumed.error)
  if (consumed.value === null) return ok(null)
  const { successor, sealedSecret } = consumed.value
  const opened = await replay.sealer.open(
    { presentedSecret: secret, idempotencyKey: key, tokenId: token.id },
    sealedSecret,
  )
  // Only a changed row gets here (the digest found the receipt, so the binding is right). The receipt
  // is spent; answering "no replay" sends the request on to reuse detection, the safe side.
  if (opened.isErr() || deps.digest(opened.value) !== successor.digest) return ok(null)
  deps.emit({
    type: 'rotation_replayed',
    at: now,
    actorUserId: user.id,
    previous: toTokenInfo(token),
    token: toTokenInfo(successor),
  })
  return ok({ token: successor, secret: opened.value })
}

/** Where the receipt of this replay would be: the Idempotency-Key's, or without one the grace window's. */
function receiptsFor(
  deps: AuthorityDeps,
  idempotencyKey: string | null,
): { readonly key: string; readonly sealer: ReceiptSealer; readonly store: RotationReceiptStore } | null {
  if (idempotencyKey === null) {
    return deps.grace === null ? null : { ...deps.grace, key: GRACE_RECEIPT_KEY }
  }
  if (deps.replay === null || deps.replay.store === null) return null
  const key = parseIdempotencyKey(idempotencyKey)
  return key.isErr() ? null : { sealer: deps.replay.sealer, store: deps.replay.store, key: key.value }
}

/** Whether the rotate route addressed by `ref` is one the presented token could have rotated itself on. */
function routeAllows(principal: Principal, ref: TokenRef, deps: AuthorityDeps): boolean {
  if (ref === 'self') {
    return hasFeature('self_rotate', deps.release) && requireScope(principal, SELF_ROTATE_SCOPES).isOk()
  }
  return (
    ref === principal.token.id &&
    hasFeature('rotate_by_id', deps.release) &&
    requireScope(principal, WRITE_SCOPES).isOk()
  )
}
