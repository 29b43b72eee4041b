import { err, errAsync, ok, type Result, type ResultAsync } from 'neverthrow'
import { tokenRevoked } from '../../domain/error-constructors.js'
import type { ErrorOf, StoreFailure } from '../../domain/errors.js'
import { createReceiptSealer, type ReceiptSealer } from '../../domain/receipt-seal.js'
import { isActive, type Token } from '../../domain/token.js'
import type { TokenStore } from '../../store/token-store.js'
import type { AuthorityConfig } from './config.js'
import type { Actor, TokenRef } from './principal.js'

/** The rotation grace window of an authority whose `rotationGraceMs` is above 0. */
export interface GraceDeps {
  readonly windowMs: number
  readonly sealer: ReceiptSealer
  readonly store: TokenStore
}

/**
 * The idempotency key a grace receipt is stored under. It holds a NUL, which no `Idempotency-Key`
 * header can (printable ASCII only), so a client's key never opens a grace receipt, nor the reverse.
 */
export const GRACE_RECEIPT_KEY = '\u0000patkit rotation grace v1'

/**
 * The grace window of a configuration: `null` when `rotationGraceMs` is 0 or absent (GitLab's
 * behaviour).
 */
export function resolveGrace(config: AuthorityConfig): GraceDeps | null {
  const windowMs = config.rotationGraceMs ?? 0
  if (windowMs === 0) return null
  return Object.freeze({ windowMs, sealer: createReceiptSealer(config.pepper), store: config.store })
}

/**
 * Whether a revoked token still works, inside the grace window: it is the immediate predecessor of a
 * token that is active now and was created (rotated to) less than `windowMs` ago. An older generation
 * never is (its successor is revoked by the next rotation), nor a token whose successor was revoked.
 */
export async function withinGrace(
  grace: GraceDeps,
  token: Token,
  now: Date,
): Promise<Result<boolean, StoreFailure>> {
  const found = await grace.store.findSuccessor(token.id)
  if (found.isErr()) return err(found.error)
  const successor = found.value
  return ok(
    successor !== null &&
      isActive(successor, now) &&
      now.getTime() < successor.createdAt.getTime() + grace.windowMs,
  )
}

/**
 * What a token in its grace period may not do: write. It is the only revoked token `authenticate`
 * lets through, so that reads go on and its own rotation can be replayed (`replayRotation`); a
 * rotation, revocation or creation by it is refused as GitLab refuses a revoked token (401
 * `token_revoked`, without reuse detection), or the window would mint credentials that outlive it.
 * `null` lets the write go on: any other principal, and a graced token rotating itself (`self` or its
 * own id), which `rotate` answers `already_revoked` (400) as docs/rotation.md says.
 */
export function refuseGracedWrite(
  principal: Actor,
  rotating?: TokenRef,
): ResultAsync<never, ErrorOf<'token_revoked'>> | null {
  const token = principal.token
  if (token === null || !token.revoked) return null
  if (rotating === 'self' || rotating === token.id) return null
  return errAsync(tokenRevoked(token.id))
}

/**
 * A write of the authority: `refuseGracedWrite` asked before `op`, so that no write forgets it. The
 * one rule every write of `authorityOver` is declared with; `rotating` is the rotation's own, whose
 * second argument is the token it rotates (a graced token may rotate itself).
 */
export function writing<P extends Actor, A extends unknown[], T, E>(
  op: (principal: P, ...args: A) => ResultAsync<T, E>,
): (principal: P, ...args: A) => ResultAsync<T, E | ErrorOf<'token_revoked'>> {
  return (principal, ...args) => refuseGracedWrite(principal) ?? op(principal, ...args)
}

/** {@link writing} for a rotation of `ref`: a graced token rotating itself goes on to `rotate`'s answer. */
export function rotating<A extends unknown[], T, E>(
  op: (principal: Actor, ref: TokenRef, ...args: A) => ResultAsync<T, E>,
): (principal: Actor, ref: TokenRef, ...args: A) => ResultAsync<T, E | ErrorOf<'token_revoked'>> {
  return (principal, ref, ...args) => refuseGracedWrite(principal, ref) ?? op(principal, ref, ...args)
}
