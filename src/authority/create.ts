import { errAsync, okAsync, type ResultAsync, safeTry } from 'neverthrow'
import { createToken } from '../domain/create-token.js'
import type { ErrorOf } from '../domain/errors.js'
import { ADMIN_ONLY_SCOPES, USER_CREATABLE_SCOPES } from '../domain/scopes.js'
import type { User } from '../store/user.js'
import { parseDateParameter } from './date-parameter.js'
import { type AuthorityDeps, mintContext } from './deps.js'
import { toTokenInfo } from './events.js'
import type { IssuedToken } from './issued-token.js'
import type { Principal } from './principal.js'
import { requireScope, WRITE_SCOPES } from './scope-policy.js'

/**
 * What a creation request carries: `name` and `scopes` are required; `expiresAt` is `YYYY-MM-DD`
 * (absent: today + the maximum lifetime when expiry is required, else never).
 *
 * @example
 * ```ts
 * import type { CreateRequest } from 'patkit'
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
 * Every way `create` can fail.
 *
 * @example
 * ```ts
 * import type { CreateError } from 'patkit'
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
>

/**
 * Creates a token, as GitLab's users API does: for any user by an administrator
 * (`POST /users/:user_id/personal_access_tokens`; others get 403), or for the caller
 * (`POST /user/personal_access_tokens`, scopes limited to `k8s_proxy` and `self_rotate`).
 * Admin-only scopes (`sudo`, `admin_mode`, `read_service_ping`) need an administrator as owner.
 */
export function create(
  deps: AuthorityDeps,
  principal: Principal,
  target: number | 'self',
  request: CreateRequest,
): ResultAsync<IssuedToken, CreateError> {
  return safeTry(async function* () {
    yield* requireScope(principal, WRITE_SCOPES)
    let owner: User
    if (target === 'self') {
      if (!request.scopes.every((s) => (USER_CREATABLE_SCOPES as readonly string[]).includes(s))) {
        return errAsync({
          type: 'invalid_parameter' as const,
          parameter: 'scopes',
          reason: 'not_allowed_value' as const,
        })
      }
      owner = principal.user
    } else {
      if (!principal.user.admin) return errAsync({ type: 'forbidden' as const })
      const found = yield* deps.users.findUser(target)
      if (found === null) return errAsync({ type: 'not_found' as const, entity: 'user' as const })
      owner = found
    }
    if (!owner.admin && request.scopes.some((s) => (ADMIN_ONLY_SCOPES as readonly string[]).includes(s))) {
      return errAsync({
        type: 'validation_failed' as const,
        message: 'Scopes can only contain available scopes',
      })
    }
    const expiresAt = yield* parseDateParameter(request.expiresAt, 'expires_at')
    const now = deps.clock.now()
    const minted = yield* createToken(
      {
        userId: owner.id,
        name: request.name,
        scopes: request.scopes,
        description: request.description ?? null,
        ...(expiresAt === undefined ? {} : { expiresAt }),
      },
      mintContext(deps, now),
    )
    const token = yield* deps.store.insert(minted.draft)
    deps.emit({ type: 'created', at: now, actorUserId: principal.user.id, token: toTokenInfo(token) })
    return okAsync({ token, secret: minted.secret })
  })
}
