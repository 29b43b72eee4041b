import type { ResultAsync } from 'neverthrow'
import type { ErrorOf } from '../../domain/errors.js'
import type { Token } from '../../domain/token.js'
import type { IssuedToken } from '../core/issued-token.js'
import type { TokenPage } from '../core/list-tokens.js'
import type { Principal } from '../core/principal.js'
import type {
  ImpersonationCreateRequest,
  ImpersonationError,
  ImpersonationListRequest,
} from './impersonation-tokens.js'

/**
 * GitLab's impersonation tokens (`/users/:user_id/impersonation_tokens`, administrators only): tokens
 * an administrator creates to act as a user.
 *
 * @example
 * ```ts
 * const created = await authority.impersonation.create(principal, 2, { name: 'support', scopes: ['read_api'], expiresAt: '2030-01-01' })
 * const page = await authority.impersonation.list(principal, 2, { state: 'active' })
 * ```
 */
export interface ImpersonationMethods {
  /** One user's impersonation tokens (`GET /users/:user_id/impersonation_tokens`). */
  list(
    principal: Principal,
    userId: number,
    request?: ImpersonationListRequest,
  ): ResultAsync<TokenPage, ImpersonationError>
  /** `POST /users/:user_id/impersonation_tokens`. */
  create(
    principal: Principal,
    userId: number,
    request: ImpersonationCreateRequest,
  ): ResultAsync<IssuedToken, ImpersonationError | ErrorOf<'token_revoked'>>
  /** `GET /users/:user_id/impersonation_tokens/:id`. */
  get(principal: Principal, userId: number, tokenId: number): ResultAsync<Token, ImpersonationError>
  /** `DELETE /users/:user_id/impersonation_tokens/:id`. */
  revoke(
    principal: Principal,
    userId: number,
    tokenId: number,
  ): ResultAsync<void, ImpersonationError | ErrorOf<'token_revoked'>>
}
