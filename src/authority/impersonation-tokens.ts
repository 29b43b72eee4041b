import { err, ok, type Result, ResultAsync } from 'neverthrow'
import { createToken } from '../domain/create-token.js'
import { forbidden, notFound, validationFailed } from '../domain/error-constructors.js'
import type { ErrorOf } from '../domain/errors.js'
import { ADMIN_ONLY_SCOPES } from '../domain/scopes.js'
import type { Token } from '../domain/token.js'
import type { PageRequest } from '../query/filter.js'
import { paginate } from '../query/pagination.js'
import type { User } from '../store/user.js'
import { parseDateParameter } from './date-parameter.js'
import { type AuthorityDeps, mintContext } from './deps.js'
import { toTokenInfo } from './events.js'
import type { IssuedToken } from './issued-token.js'
import type { TokenPage } from './list-tokens.js'
import type { Principal } from './principal.js'
import { requireScope, USER_READ_SCOPES, WRITE_SCOPES } from './scope-policy.js'

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
}

/**
 * Every way an impersonation token operation can fail. `not_found` names the `user`, or the `token`
 * (no impersonation token of that user has that id).
 *
 * @example
 * ```ts
 * import type { ImpersonationError } from './impersonation-tokens.js'
 * declare const e: ImpersonationError
 * e.type
 * ```
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

/**
 * GitLab's `authenticated_as_admin!` then `find_user_by_id`: the token's scope first, then 403 for
 * anyone but an administrator (before the user is looked up), then 404 for an unknown user.
 */
async function adminAndUser(
  deps: AuthorityDeps,
  principal: Principal,
  userId: number,
  write: boolean,
): Promise<Result<User, ImpersonationError>> {
  const scoped = requireScope(principal, write ? WRITE_SCOPES : USER_READ_SCOPES)
  if (scoped.isErr()) return err(scoped.error)
  if (!principal.user.admin) return err(forbidden())
  const found = await deps.users.findUser(userId)
  if (found.isErr()) return err(found.error)
  return found.value === null ? err(notFound('user')) : ok(found.value)
}

/**
 * One user's impersonation tokens (administrators only), in id order, filtered by `state`
 * (`active` = neither revoked nor expired, `inactive` = revoked or expired, `all`).
 *
 * @example
 * ```ts
 * import { listImpersonationTokens } from './impersonation-tokens.js'
 * import type { AuthorityDeps } from './deps.js'
 * declare const deps: AuthorityDeps
 *
 * const page = await listImpersonationTokens(deps, principal, 2, { state: 'active' })
 * ```
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
  const page = {
    page: Math.max(1, request.page?.page ?? 1),
    perPage: Math.min(100, Math.max(1, request.page?.perPage ?? 20)),
  }
  const state = request.state ?? 'all'
  const listed = await deps.store.list({
    filter: { userId: user.value.id, impersonationOnly: true, ...(state === 'all' ? {} : { state }) },
    sort: 'id_asc',
    page,
    now: deps.clock.now(),
  })
  if (listed.isErr()) return err(listed.error)
  return ok({ items: listed.value.items, pagination: paginate(listed.value.total, page) })
}

/**
 * Creates an impersonation token for a user (administrators only): GitLab's model rules, its expiry
 * window, and `impersonation: true`. Unknown scopes, and admin-only scopes for a non-admin owner,
 * fail validation ("Scopes can only contain available scopes"), as the route has no list of values.
 *
 * @example
 * ```ts
 * import { createImpersonationToken } from './impersonation-tokens.js'
 * import type { AuthorityDeps } from './deps.js'
 * declare const deps: AuthorityDeps
 *
 * const issued = await createImpersonationToken(deps, principal, 2, { name: 'support', scopes: ['api'] })
 * ```
 */
export function createImpersonationToken(
  deps: AuthorityDeps,
  principal: Principal,
  userId: number,
  request: ImpersonationCreateRequest,
): ResultAsync<IssuedToken, ImpersonationError> {
  return new ResultAsync(createFor(deps, principal, userId, request))
}

const UNAVAILABLE_SCOPES = 'Scopes can only contain available scopes'

async function createFor(
  deps: AuthorityDeps,
  principal: Principal,
  userId: number,
  request: ImpersonationCreateRequest,
): Promise<Result<IssuedToken, ImpersonationError>> {
  const user = await adminAndUser(deps, principal, userId, true)
  if (user.isErr()) return err(user.error)
  const owner = user.value
  const scopes = request.scopes ?? []
  if (!owner.admin && scopes.some((s) => (ADMIN_ONLY_SCOPES as readonly string[]).includes(s))) {
    return err(validationFailed(UNAVAILABLE_SCOPES))
  }
  const expiresAt = parseDateParameter(request.expiresAt, 'expires_at')
  if (expiresAt.isErr()) return err(expiresAt.error)
  const now = deps.clock.now()
  const minted = createToken(
    {
      userId: owner.id,
      name: request.name,
      scopes,
      description: request.description ?? null,
      impersonation: true,
      ...(expiresAt.value === undefined ? {} : { expiresAt: expiresAt.value }),
    },
    mintContext(deps, now),
  )
  if (minted.isErr()) {
    const e = minted.error
    // The route declares no scope values: an unknown scope is the model's error, not Grape's.
    return err(
      e.type === 'invalid_parameter' && e.parameter === 'scopes' ? validationFailed(UNAVAILABLE_SCOPES) : e,
    )
  }
  const token = await deps.store.insert(minted.value.draft)
  if (token.isErr()) return err(token.error)
  deps.emit({ type: 'created', at: now, actorUserId: principal.user.id, token: toTokenInfo(token.value) })
  return ok({ token: token.value, secret: minted.value.secret })
}

/**
 * One impersonation token of a user (administrators only); a token of another user, or one that is
 * not an impersonation token, is not found.
 *
 * @example
 * ```ts
 * import { getImpersonationToken } from './impersonation-tokens.js'
 * import type { AuthorityDeps } from './deps.js'
 * declare const deps: AuthorityDeps
 *
 * const token = await getImpersonationToken(deps, principal, 2, 41)
 * ```
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
  const found = await deps.store.findById(tokenId)
  if (found.isErr()) return err(found.error)
  const token = found.value
  if (token === null || token.userId !== user.value.id || !token.impersonation) return err(notFound('token'))
  return ok(token)
}

/**
 * Revokes one impersonation token of a user (administrators only). Revoking a revoked token succeeds,
 * as GitLab's `revoke!` does.
 *
 * @example
 * ```ts
 * import { revokeImpersonationToken } from './impersonation-tokens.js'
 * import type { AuthorityDeps } from './deps.js'
 * declare const deps: AuthorityDeps
 *
 * await revokeImpersonationToken(deps, principal, 2, 41) // ok(undefined): 204
 * ```
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
  const outcome = await deps.store.revoke(found.value.id)
  if (outcome.isErr()) return err(outcome.error)
  if (outcome.value === 'revoked') {
    const now = deps.clock.now()
    deps.emit({
      type: 'revoked',
      at: now,
      actorUserId: principal.user.id,
      token: toTokenInfo({ ...found.value, revoked: true }),
    })
  }
  return ok(undefined)
}
