import { err, ok, type Result, ResultAsync } from 'neverthrow'
import { createToken } from '../domain/create-token.js'
import { forbidden, invalidParameter, notFound, validationFailed } from '../domain/error-constructors.js'
import type { ErrorOf } from '../domain/errors.js'
import { ADMIN_ONLY_SCOPES, USER_CREATABLE_SCOPES } from '../domain/scopes.js'
import type { UserId } from '../domain/user-id.js'
import type { User } from '../store/user.js'
import { parseDateParameter } from './date-parameter.js'
import { type AuthorityDeps, mintContext } from './deps.js'
import { toTokenInfo } from './events.js'
import type { IssuedToken } from './issued-token.js'
import { type Actor, actsAsAdmin } from './principal.js'
import { requireScope, WRITE_SCOPES } from './scope-policy.js'

/**
 * What a creation request carries: `name` and `scopes` are required; `expiresAt` is `YYYY-MM-DD`
 * (absent: today + the maximum lifetime when expiry is required, else never).
 *
 * @example
 * ```ts
 * import type { CreateRequest } from 'patkit/authority'
 * const request: CreateRequest = { name: 'ci', scopes: ['read_api'], expiresAt: '2030-01-01' }
 * ```
 */
export interface CreateRequest {
  readonly name: string
  readonly scopes: readonly string[]
  readonly description?: string | null
  readonly expiresAt?: string
}

/**
 * Every way `create` (and `createOwn`) can fail. `token_revoked`: the principal's token is in its
 * grace period (`rotationGraceMs`), which may not create tokens (docs/rotation.md).
 *
 * @example
 * ```ts
 * import type { CreateError } from './create.js'
 * declare const e: CreateError
 * e.type
 * ```
 */
export type CreateError = ErrorOf<
  | 'insufficient_scope'
  | 'forbidden'
  | 'not_found'
  | 'invalid_parameter'
  | 'validation_failed'
  | 'invalid_expiry'
  | 'store_failure'
  | 'token_revoked'
>

/**
 * Creates a token, as GitLab's users API does: for any user by an administrator
 * (`POST /users/:user_id/personal_access_tokens`; others get 403), or for the caller
 * (`POST /user/personal_access_tokens`, scopes limited to `k8s_proxy` and `self_rotate`).
 * Admin-only scopes (`sudo`, `admin_mode`, `read_service_ping`) need an administrator as owner.
 *
 * @example
 * ```ts
 * import type { Principal } from 'patkit'
 * import { create } from './create.js'
 * import type { AuthorityDeps } from './deps.js'
 * declare const deps: AuthorityDeps
 * declare const admin: Principal
 *
 * const created = await create(deps, admin, 3, { name: 'ci', scopes: ['read_api'] })
 * ```
 */
export function create(
  deps: AuthorityDeps,
  principal: Actor,
  target: UserId | 'self',
  request: CreateRequest,
): ResultAsync<IssuedToken, CreateError> {
  return new ResultAsync(createFor(deps, principal, target, request))
}

async function createFor(
  deps: AuthorityDeps,
  principal: Actor,
  target: UserId | 'self',
  request: CreateRequest,
): Promise<Result<IssuedToken, CreateError>> {
  const scoped = requireScope(principal, WRITE_SCOPES)
  if (scoped.isErr()) return err(scoped.error)
  let owner: User
  if (target === 'self') {
    if (!request.scopes.every((s) => (USER_CREATABLE_SCOPES as readonly string[]).includes(s))) {
      return err(invalidParameter('scopes', 'not_allowed_value'))
    }
    owner = principal.user
  } else {
    if (!actsAsAdmin(principal)) return err(forbidden())
    const found = await deps.userById(target)
    if (found.isErr()) return err(found.error)
    if (found.value === null) return err(notFound('user'))
    owner = found.value
  }
  return mintFor(deps, principal, owner, request)
}

/**
 * The checks every creation shares once the owner is settled, and the creation: admin-only scopes need
 * an administrator as owner, the token's fields (`validateTokenFields`), the expiry window
 * (`resolveExpiry`; `refusePast` for `createOwn`, where GitLab's create makes a past date an inactive
 * token), then the insert and the `created` event. `create` and `createOwn` both end here.
 *
 * @example
 * ```ts
 * import { mintFor } from './create.js'
 * import type { AuthorityDeps } from './deps.js'
 * declare const deps: AuthorityDeps
 *
 * const created = await mintFor(deps, principal, principal.user, { name: 'ci', scopes: ['read_api'] })
 * ```
 */
export async function mintFor(
  deps: AuthorityDeps,
  principal: Actor,
  owner: User,
  request: CreateRequest,
  refusePast = false,
): Promise<Result<IssuedToken, CreateError>> {
  if (!owner.admin && request.scopes.some((s) => (ADMIN_ONLY_SCOPES as readonly string[]).includes(s))) {
    return err(validationFailed('Scopes can only contain available scopes'))
  }
  const expiresAt = parseDateParameter(request.expiresAt, 'expires_at')
  if (expiresAt.isErr()) return err(expiresAt.error)
  const now = deps.clock.now()
  const minted = createToken(
    {
      userId: owner.id,
      name: request.name,
      scopes: request.scopes,
      description: request.description ?? null,
      ...(expiresAt.value === undefined ? {} : { expiresAt: expiresAt.value }),
      refusePast,
    },
    mintContext(deps, now),
  )
  if (minted.isErr()) return err(minted.error)
  const token = await deps.store.insert(minted.value.draft)
  if (token.isErr()) return err(token.error)
  deps.emit({ type: 'created', at: now, actorUserId: principal.user.id, token: toTokenInfo(token.value) })
  return ok({ token: token.value, secret: minted.value.secret })
}
