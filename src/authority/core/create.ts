import { ResultAsync } from 'neverthrow'
import type { ErrorOf } from '../../domain/errors.js'
import type { GranularScope } from '../../domain/granular-scope.js'
import type { UserId } from '../../domain/user-id.js'
import type { AuthorityDeps } from './deps.js'
import { admitGranularScopes } from './granular-admission.js'
import type { IssuedToken } from './issued-token.js'
import { mint } from './mint.js'
import type { Actor } from './principal.js'
import { PERSONAL_TOKEN, SELF_SERVICE_TOKEN } from './token-kinds.js'

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
  /** A fine-grained token's scopes (GitLab's `granular_scopes`, expanded: one per project or group); `scopes` is then `[]`. */
  readonly granularScopes?: readonly GranularScope[]
}

/**
 * Every way `create` (and `createOwn`) can fail. `token_revoked`: the principal's token is in its
 * grace period (`rotationGraceMs`), which may not create tokens (docs/rotation.md).
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
 * The kinds `PERSONAL_TOKEN` and `SELF_SERVICE_TOKEN` through the one mint path.
 */
export function create(
  deps: AuthorityDeps,
  principal: Actor,
  target: UserId | 'self',
  request: CreateRequest,
): ResultAsync<IssuedToken, CreateError> {
  return admitGranularScopes(deps, principal, request.granularScopes).andThen(
    () =>
      new ResultAsync(
        target === 'self'
          ? mint(deps, SELF_SERVICE_TOKEN, principal, null, request)
          : mint(deps, PERSONAL_TOKEN, principal, target, request),
      ),
  )
}
