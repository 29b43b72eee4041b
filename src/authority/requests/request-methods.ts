import type { Result, ResultAsync } from 'neverthrow'
import type { GranularAccessError, GranularRequirement } from '../core/granular-access.js'
import type { IssuedToken } from '../core/issued-token.js'
import type { Principal, TokenRef } from '../core/principal.js'
import type { ReplayError } from './replay-rotation.js'
import type { PrincipalError, RequestCredentials } from './request-principal.js'
import type { RequestRotation, RotateRequest, RotateRequestError } from './rotate-request.js'
import type { SudoError } from './sudo.js'

/**
 * What `patkit/http` (or an application's own HTTP binding) calls for an API request: the principal
 * it acts as, and a rotation in one call. An embedder that calls the authority directly needs none
 * of it.
 *
 * @example
 * ```ts
 * const caller = await authority.requests.requestPrincipal({ secret: request.headers.get('private-token'), sudo: null })
 * if (caller.isOk() && caller.value !== null) console.log(caller.value.user.username)
 * ```
 */
export interface RequestMethods {
  /**
   * GitLab's `current_user` of an API request: its token authenticated, then the user it names with
   * `sudo`; `null` when it presents neither (each route decides whether it serves anonymous callers).
   * `write`: the request changes data, so it is decided on the token as the store holds it now, never
   * on a cached row. The one way `patkit/http` turns a request into a principal (a rotation excepted:
   * `rotateRequest` applies the same steps).
   *
   * @example
   * ```ts
   * const caller = await authority.requests.requestPrincipal({ secret: request.headers.get('private-token'), sudo: request.headers.get('sudo') })
   * if (caller.isOk() && caller.value !== null) console.log(caller.value.user.username)
   * ```
   */
  requestPrincipal(
    credentials: RequestCredentials,
    options?: { readonly write?: boolean },
  ): ResultAsync<Principal | null, PrincipalError>
  /**
   * A rotate request (`POST /personal_access_tokens/self/rotate` or `/:id/rotate`) in one call: a retry
   * is replayed (`Idempotency-Key`, the grace window), else the secret is authenticated (a revoked
   * token is reuse), `sudo` is applied, and the token rotated; the secret is digested and looked up
   * once. See {@link RotateRequest} for the parameter errors a caller hands in.
   *
   * @example
   * ```ts
   * import { ok } from 'neverthrow'
   *
   * const rotated = await authority.requests.rotateRequest({ secret, ref: ok('self'), idempotencyKey: 'retry-1' })
   * if (rotated.isOk()) console.log(rotated.value.secret, rotated.value.replayed)
   * ```
   */
  rotateRequest(request: RotateRequest): ResultAsync<RequestRotation, RotateRequestError>
  /**
   * A retried rotation (`Idempotency-Key`): the successor a `rotate` with the same old secret and key
   * stored, once, while redeemable; else `null`, and the request goes on through `authenticate`.
   * With `idempotencyKey` `null`, the grace window's receipt (`rotationGraceMs`; always `null`
   * without one).
   */
  replayRotation(
    secret: string | null | undefined,
    ref: TokenRef,
    idempotencyKey: string | null,
  ): ResultAsync<IssuedToken | null, ReplayError>
  /**
   * The principal a request acts as when it names a user with `sudo` (GitLab's `sudo!`): an
   * administrator's token with the `sudo` scope acts as that user (id or username).
   */
  sudo(principal: Principal, identifier: string): ResultAsync<Principal, SudoError>
  /**
   * Whether the principal's token may use an operation that declares `requirement` (GitLab's
   * `route_setting :authorization`; `null` for one that declares none): a legacy token may (its
   * scopes are checked by the operation), unless the `granularEnforcement` option says the project's or
   * group's top-level group enforces fine-grained tokens, where a human's legacy token is held to them
   * with no permission; a fine-grained token needs the permission at the boundary (403
   * `insufficient_granular_scope`), and a project or group it may not see is `not_found`. The answer
   * is immediate for a user or instance boundary and for a legacy token without enforcement (no
   * promise), read from the store otherwise.
   *
   * @example
   * ```ts
   * const allowed = await authority.requests.authorizeGranular(principal, {
   *   permission: 'read_personal_access_token',
   *   boundary: 'user',
   * })
   * if (allowed.isErr()) console.log(allowed.error.type) // 'insufficient_granular_scope'
   * ```
   */
  authorizeGranular(
    principal: Principal,
    requirement: GranularRequirement | null,
  ): Result<void, GranularAccessError> | Promise<Result<void, GranularAccessError>>
}
