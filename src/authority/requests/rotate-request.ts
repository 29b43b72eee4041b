import { err, ok, type Result, ResultAsync } from 'neverthrow'
import { unauthenticated } from '../../domain/error-constructors.js'
import type { ErrorOf } from '../../domain/errors.js'
import type { Token } from '../../domain/token.js'
import type { AuthenticateError } from '../core/authenticate.js'
import { findPresented, principalFrom, refuseSecret } from '../core/authenticate.js'
import type { AuthorityDeps } from '../core/deps.js'
import { refuseGracedWrite } from '../core/grace-window.js'
import {
  authorizeGranular,
  type GranularAccessError,
  type GranularRequirement,
} from '../core/granular-access.js'
import type { IssuedToken } from '../core/issued-token.js'
import type { Principal, TokenRef } from '../core/principal.js'
import { type RotateError, type RotateOptions, rotateFor } from '../core/rotate.js'
import { receiptsFor, replayFound } from './replay-rotation.js'
import type { RequestCredentials } from './request-principal.js'
import { sudoAfter } from './request-principal.js'
import type { SudoError } from './sudo.js'

/**
 * A rotation as a request to GitLab's API asks for it: the credentials it presents, its
 * `Idempotency-Key` (absent or `null` for none), the token it names and the expiry it asks for. `ref`
 * and `expiresAt` are the caller's parsing of the request: a parameter error there (an unknown
 * parameter, an invalid id or expiry) is answered after authentication and `sudo`, where GitLab
 * validates parameters, so a revoked token presented to a malformed rotation is still reuse. A `ref`
 * error also means no replay is looked for (no first request could have been this one); an
 * `expiresAt` error does not (a retry is answered as its first request was).
 *
 * @example
 * ```ts
 * import { ok } from 'neverthrow'
 * import type { RotateRequest } from 'patkit/authority'
 *
 * const request: RotateRequest = { secret, ref: ok('self'), idempotencyKey: 'retry-1', expiresAt: ok('2030-01-31') }
 * const rotated = await authority.requests.rotateRequest(request)
 * ```
 */
export interface RotateRequest extends RequestCredentials {
  readonly idempotencyKey?: string | null
  readonly ref: Result<TokenRef, InvalidParameter>
  readonly expiresAt?: Result<string | undefined, InvalidParameter>
  /**
   * The route's fine-grained requirement (`authorizeGranular`), checked once the caller is known and
   * before its parameter errors; `null`: the route declares none; absent: not checked.
   */
  readonly granular?: GranularRequirement | null
}

/**
 * A rotate request's answer: the successor and its secret, and whether it was a replay (the answer a
 * first request with the same secret and `Idempotency-Key`, or inside the grace window, was given).
 *
 * @example
 * ```ts
 * import { ok } from 'neverthrow'
 * import type { RequestRotation } from 'patkit/authority'
 *
 * const rotated = await authority.requests.rotateRequest({ secret, ref: ok('self') })
 * if (rotated.isOk()) {
 *   const answer: RequestRotation = rotated.value
 *   console.log(answer.token.id, answer.replayed)
 * }
 * ```
 */
export interface RequestRotation extends IssuedToken {
  readonly replayed: boolean
}

/**
 * Every way a rotate request can fail: its parameters, its authentication, its `sudo`, the rotation.
 */
export type RotateRequestError =
  | AuthenticateError
  | SudoError
  | RotateError
  | GranularAccessError
  | InvalidParameter

/** A parameter the request's parser refused (`invalid_parameter`), answered after authentication. */
type InvalidParameter = ErrorOf<'invalid_parameter'>

/**
 * A rotate request in one call, in the order GitLab's API and docs/rotation.md give it: a retry is
 * replayed (before authentication, which would take the rotated token for reuse), else the secret is
 * authenticated (a revoked token is reuse: the tokens rotated from it are revoked), `sudo` switches
 * the principal, the caller's parameter errors are answered, and the token is rotated (release gate,
 * scope, access, expiry). The secret is digested once and its token looked up once, from the store
 * (never from a cache), for the replay and the authentication together.
 */
export function rotateRequest(
  deps: AuthorityDeps,
  request: RotateRequest,
): ResultAsync<RequestRotation, RotateRequestError> {
  return new ResultAsync(rotateRequestVia(deps, request, rotateFor))
}

/**
 * The last step of a rotate request: which token `ref` names and whether the principal may rotate
 * it, then the rotation. Personal access tokens use `rotateFor`; a project's or group's tokens
 * their own (resource-token-rotate.ts), after the same replay, authentication (reuse detection) and
 * `sudo`.
 */
export type RotationStep<X, R extends IssuedToken = IssuedToken> = (
  deps: AuthorityDeps,
  principal: Principal,
  ref: TokenRef,
  options: RotateOptions,
  digestOf: (secret: string) => string,
  presented: Token,
) => Promise<Result<R, RotateError | X>>

/**
 * What {@link rotateRequestVia} answers: the step's own answer (`R`, which may carry what the step
 * found) for a rotation, or the stored successor for a replay, which runs no step.
 */
export type StepRotation<R extends IssuedToken> =
  | (R & { readonly replayed: false })
  | (IssuedToken & { readonly replayed: true })

/**
 * A rotate request's caller, decided before its parameters are looked at: a replay of a first
 * request's answer, or the principal (after `sudo`) with the token it presented and its digest.
 */
export type RotationCaller =
  | { readonly replayed: true; readonly rotation: IssuedToken }
  | {
      readonly replayed: false
      readonly principal: Principal
      readonly presented: Token
      readonly secret: string
      readonly digest: string
      readonly idempotencyKey: string | null
    }

/**
 * The first half of every rotate request: a retry is replayed (only when `ref` is known: a request
 * whose id did not parse cannot be a retry), else the secret is authenticated (a revoked token is
 * reuse) and `sudo` applied. The secret is digested and its token looked up once, for both.
 */
export async function rotationCaller(
  deps: AuthorityDeps,
  request: RequestCredentials & { readonly idempotencyKey?: string | null; readonly ref: TokenRef | null },
): Promise<Result<RotationCaller, RotateRequestError>> {
  const { secret, ref } = request
  const refused = refuseSecret(deps, secret)
  if (refused !== null || typeof secret !== 'string') return err(refused ?? unauthenticated('missing'))
  const now = deps.clock.now()
  const digest = deps.digest(secret)
  const found = await findPresented(deps, digest, true)
  const key = request.idempotencyKey ?? null
  const receipts = ref === null ? null : receiptsFor(deps, key)
  if (receipts !== null && ref !== null) {
    if (found.isErr()) return err(found.error)
    const replayed = await replayFound(deps, receipts, found.value, secret, ref, now)
    if (replayed.isErr()) return err(replayed.error)
    if (replayed.value !== null) return ok({ replayed: true, rotation: replayed.value })
  }
  const authenticated = await principalFrom(deps, found, now, { rotateRequest: true, ip: request.ip ?? null })
  if (authenticated.isErr()) return err(authenticated.error)
  const acting = await sudoAfter(deps, authenticated.value, request.sudo)
  if (acting.isErr()) return err(acting.error)
  const presented = authenticated.value.token
  return ok({ replayed: false, principal: acting.value, presented, secret, digest, idempotencyKey: key })
}

/** The second half: the rotation of `ref` by the caller {@link rotationCaller} decided, through `step`. */
export async function rotateAsCaller<X, R extends IssuedToken>(
  deps: AuthorityDeps,
  caller: Extract<RotationCaller, { readonly replayed: false }>,
  ref: TokenRef,
  expiresAt: string | undefined,
  step: RotationStep<X, R>,
): Promise<Result<R & { readonly replayed: false }, RotateError | X>> {
  const { principal, secret, digest, idempotencyKey: key } = caller
  // A token in its grace period may not write (grace-window.ts): the one check `authority.rotate` makes first.
  const graced = refuseGracedWrite(principal, ref)
  if (graced !== null) return await graced
  const options: RotateOptions = {
    ...(expiresAt === undefined ? {} : { expiresAt }),
    ...(key === null ? {} : { idempotency: { key, presentedSecret: secret } }),
    presentedSecret: secret,
  }
  // The request's secret is the one just digested, its token the one just read (and its use recorded).
  const digestOf = (presented: string) => (presented === secret ? digest : deps.digest(presented))
  const rotated = await step(deps, principal, ref, options, digestOf, caller.presented)
  return rotated.isErr() ? err(rotated.error) : ok({ ...rotated.value, replayed: false as const })
}

/**
 * {@link rotateRequest} with its last step given: the one order of every rotate request, the
 * caller's parameter errors answered between {@link rotationCaller} and {@link rotateAsCaller}.
 */
export async function rotateRequestVia<X, R extends IssuedToken>(
  deps: AuthorityDeps,
  request: RotateRequest,
  step: RotationStep<X, R>,
): Promise<Result<StepRotation<R>, RotateRequestError | X>> {
  const ref = request.ref.isOk() ? request.ref.value : null
  const caller = await rotationCaller(deps, { ...request, ref })
  if (caller.isErr()) return err(caller.error)
  if (caller.value.replayed) return ok({ ...caller.value.rotation, replayed: true as const })
  if (request.granular !== undefined) {
    const allowed = await authorizeGranular(deps, caller.value.principal, request.granular)
    if (allowed.isErr()) return err(allowed.error)
  }
  if (request.ref.isErr()) return err(request.ref.error)
  const expiresAt = request.expiresAt ?? ok(undefined)
  if (expiresAt.isErr()) return err(expiresAt.error)
  return rotateAsCaller(deps, caller.value, request.ref.value, expiresAt.value, step)
}
