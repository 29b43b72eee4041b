import { err, ok, type Result, ResultAsync } from 'neverthrow'
import { notFound } from '../../domain/error-constructors.js'
import type { ErrorOf } from '../../domain/errors.js'
import type { GranularScope } from '../../domain/granular-scope.js'
import type { Token } from '../../domain/token.js'
import type { PageRequest } from '../../query/filter.js'
import type { User } from '../../store/user.js'
import { administratorOver, userFromDirectory } from '../core/admission.js'
import type { AuthorityDeps } from '../core/deps.js'
import { admitGranularScopes } from '../core/granular-admission.js'
import type { IssuedToken } from '../core/issued-token.js'
import { listPage, type TokenPage } from '../core/list-tokens.js'
import { mint } from '../core/mint.js'
import type { Principal } from '../core/principal.js'
import { revokeStored } from '../core/revoke-stored.js'
import { USER_READ_SCOPES, WRITE_SCOPES } from '../core/scope-policy.js'
import { findTokenBy, onlyTokens } from '../core/token-access.js'
import { IMPERSONATION_TOKEN } from '../core/token-kinds.js'

/**
 * The `state` filter of GitLab's impersonation token list (`all` is the default).
 *
 * @example
 * ```ts
 * import type { ImpersonationState } from 'patkit/authority'
 * const state: ImpersonationState = 'active'
 * ```
 */
export type ImpersonationState = 'all' | 'active' | 'inactive'

/**
 * A `GET /users/:user_id/impersonation_tokens` request: every part optional.
 *
 * @example
 * ```ts
 * import type { ImpersonationListRequest } from 'patkit/authority'
 * const request: ImpersonationListRequest = { state: 'inactive', page: { page: 2, perPage: 50 } }
 * ```
 */
export interface ImpersonationListRequest {
  readonly state?: ImpersonationState
  readonly page?: Partial<PageRequest>
}

/**
 * A `POST /users/:user_id/impersonation_tokens` request: only `name` is required by the route;
 * missing `scopes` fail GitLab's model validation ("Scopes can't be blank").
 *
 * @example
 * ```ts
 * import type { ImpersonationCreateRequest } from 'patkit/authority'
 * const request: ImpersonationCreateRequest = { name: 'support', scopes: ['api'], expiresAt: '2030-01-01' }
 * ```
 */
export interface ImpersonationCreateRequest {
  readonly name: string
  readonly scopes?: readonly string[]
  readonly description?: string | null
  readonly expiresAt?: string
  /** A fine-grained impersonation token's scopes (from 19.2), instead of `scopes`. */
  readonly granularScopes?: readonly GranularScope[]
}

/**
 * Every way an impersonation token operation can fail. `not_found` names the `user`, or the `token`
 * (no impersonation token of that user has that id).
 */
export type ImpersonationError = ErrorOf<
  | 'insufficient_scope'
  | 'forbidden'
  | 'not_found'
  | 'invalid_parameter'
  | 'validation_failed'
  | 'invalid_expiry'
  | 'store_failure'
>

// Every impersonation route: an administrator, a token with the route's scope, a known user.
function adminAndUser(
  deps: AuthorityDeps,
  principal: Principal,
  userId: number,
  write: boolean,
): Promise<Result<User, ImpersonationError>> {
  return administratorOver(
    deps,
    principal,
    write ? WRITE_SCOPES : USER_READ_SCOPES,
    userFromDirectory,
    userId,
  )
}

/**
 * One user's impersonation tokens (administrators only), in id order, filtered by `state`
 * (`active` = neither revoked nor expired, `inactive` = revoked or expired, `all`).
 */
export function listImpersonationTokens(
  deps: AuthorityDeps,
  principal: Principal,
  userId: number,
  request: ImpersonationListRequest = {},
): ResultAsync<TokenPage, ImpersonationError> {
  return new ResultAsync(listFor(deps, principal, userId, request))
}

async function listFor(
  deps: AuthorityDeps,
  principal: Principal,
  userId: number,
  request: ImpersonationListRequest,
): Promise<Result<TokenPage, ImpersonationError>> {
  const user = await adminAndUser(deps, principal, userId, false)
  if (user.isErr()) return err(user.error)
  const state = request.state ?? 'all'
  const filter = { userId: user.value.id, impersonationOnly: true, ...(state === 'all' ? {} : { state }) }
  return listPage(deps, filter, request.page === undefined ? {} : { page: request.page })
}

/**
 * Creates an impersonation token for a user (administrators only): GitLab's model rules, its expiry
 * window, and `impersonation: true`. Unknown scopes, and admin-only scopes for a non-admin owner,
 * fail validation ("Scopes can only contain available scopes"), as the route has no list of values.
 * The kind `IMPERSONATION_TOKEN` through the one mint path.
 */
export function createImpersonationToken(
  deps: AuthorityDeps,
  principal: Principal,
  userId: number,
  request: ImpersonationCreateRequest,
): ResultAsync<IssuedToken, ImpersonationError> {
  // Missing scopes fail the model's validation ("Scopes can't be blank"), unless the token is granular.
  return admitGranularScopes(deps, principal, request.granularScopes).andThen(
    () =>
      new ResultAsync(
        mint(deps, IMPERSONATION_TOKEN, principal, userId, { ...request, scopes: request.scopes ?? [] }),
      ),
  )
}

/**
 * One impersonation token of a user (administrators only); a token of another user, or one that is
 * not an impersonation token, is not found.
 */
export function getImpersonationToken(
  deps: AuthorityDeps,
  principal: Principal,
  userId: number,
  tokenId: number,
): ResultAsync<Token, ImpersonationError> {
  return new ResultAsync(findFor(deps, principal, userId, tokenId, false))
}

async function findFor(
  deps: AuthorityDeps,
  principal: Principal,
  userId: number,
  tokenId: number,
  write: boolean,
): Promise<Result<Token, ImpersonationError>> {
  const user = await adminAndUser(deps, principal, userId, write)
  if (user.isErr()) return err(user.error)
  const owner = user.value.id
  return findTokenBy(
    deps,
    tokenId,
    onlyTokens(notFound('token'), (token) => token.userId === owner && token.impersonation),
  )
}

/**
 * Revokes one impersonation token of a user (administrators only). Revoking a revoked token succeeds,
 * as GitLab's `revoke!` does.
 */
export function revokeImpersonationToken(
  deps: AuthorityDeps,
  principal: Principal,
  userId: number,
  tokenId: number,
): ResultAsync<void, ImpersonationError> {
  return new ResultAsync(revokeFor(deps, principal, userId, tokenId))
}

async function revokeFor(
  deps: AuthorityDeps,
  principal: Principal,
  userId: number,
  tokenId: number,
): Promise<Result<void, ImpersonationError>> {
  const found = await findFor(deps, principal, userId, tokenId, true)
  if (found.isErr()) return err(found.error)
  const outcome = await revokeStored(deps, principal.user.id, found.value)
  if (outcome.isErr()) return err(outcome.error)
  return ok(undefined)
}
