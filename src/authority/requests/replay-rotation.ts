import { err, ok, okAsync, type Result, ResultAsync } from 'neverthrow'
import type { StoreFailure } from '../../domain/errors.js'
import { parseIdempotencyKey } from '../../domain/idempotency-key.js'
import type { ReceiptSealer } from '../../domain/receipt-seal.js'
import { isExpired } from '../../domain/token.js'
import type { TokenStore, TokenWithUser } from '../../store/token-store.js'
import { findPresented } from '../core/authenticate.js'
import type { AuthorityDeps } from '../core/deps.js'
import { toTokenInfo } from '../core/events.js'
import { GRACE_RECEIPT_KEY } from '../core/grace-window.js'
import type { IssuedToken } from '../core/issued-token.js'
import type { TokenRef } from '../core/principal.js'
import { checkRotation } from '../core/rotation-rule.js'

/** Every way `replayRotation` can fail: only the store. Everything else is `null`, "no replay". */
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
 * release, its scopes allow the route, and `ref` is `self` or the token's own id. An invalid key and a
 * replay window of 0 give `null` (`rotate` reports the key).
 *
 * With `idempotencyKey` `null` (no header), the grace window's receipt is looked for instead: a token
 * that rotated itself less than `rotationGraceMs` ago gets the same successor, once, on the same terms.
 * With no grace window that is always `null`, without a store call.
 */
export function replayRotation(
  deps: AuthorityDeps,
  secret: string | null | undefined,
  ref: TokenRef,
  idempotencyKey: string | null,
): ResultAsync<IssuedToken | null, ReplayError> {
  const receipts = receiptsFor(deps, idempotencyKey)
  if (receipts === null || secret === null || secret === undefined || secret === '') return okAsync(null)
  return new ResultAsync(lookUpThenReplay(deps, receipts, secret, ref))
}

async function lookUpThenReplay(
  deps: AuthorityDeps,
  receipts: Receipts,
  secret: string,
  ref: TokenRef,
): Promise<Result<IssuedToken | null, ReplayError>> {
  const now = deps.clock.now()
  const found = await findPresented(deps, deps.digest(secret), true)
  if (found.isErr()) return err(found.error)
  return replayFound(deps, receipts, found.value, secret, ref, now)
}

/** Where the receipt of a replay is looked for, and the key it was sealed under. */
export interface Receipts {
  readonly key: string
  readonly sealer: ReceiptSealer
  readonly store: TokenStore
}

/**
 * The replay of a rotation whose presented token was read from the store already (the rotate request
 * looks it up once for its replay and its authentication): see {@link replayRotation}.
 */
export async function replayFound(
  deps: AuthorityDeps,
  receipts: Receipts,
  found: TokenWithUser | null,
  secret: string,
  ref: TokenRef,
  now: Date,
): Promise<Result<IssuedToken | null, ReplayError>> {
  if (found === null) return ok(null)
  const { token, user } = found
  if (user === null || user.blocked || isExpired(token, now) || !token.revoked) return ok(null)
  // Only where the first request could have rotated: the same release gate and scope, and its own token.
  if (checkRotation(deps, { user, token }, ref).isErr() || (ref !== 'self' && ref !== token.id))
    return ok(null)
  const { key, sealer, store } = receipts
  const consumed = await store.consumeRotationReceipt(token.id, sealer.keyDigest(secret, key), now)
  if (consumed.isErr()) return err(consumed.error)
  if (consumed.value === null) return ok(null)
  const { successor, sealedSecret } = consumed.value
  const opened = await sealer.open(
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

/**
 * Where the receipt of this replay would be: the Idempotency-Key's, or without one the grace
 * window's; `null` when there is none to look for (no grace window, the header turned off, an
 * invalid key), and the request goes on as one without a key.
 */
export function receiptsFor(deps: AuthorityDeps, idempotencyKey: string | null): Receipts | null {
  if (idempotencyKey === null) {
    return deps.grace === null ? null : { ...deps.grace, key: GRACE_RECEIPT_KEY }
  }
  if (deps.replay === null) return null
  const key = parseIdempotencyKey(idempotencyKey)
  return key.isErr() ? null : { sealer: deps.replay.sealer, store: deps.replay.store, key: key.value }
}
