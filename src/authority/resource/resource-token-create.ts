import { ResultAsync } from 'neverthrow'
import type { ErrorOf } from '../../domain/errors.js'
import type { AccessLevel } from '../../domain/resource.js'
import type { AuthorityDeps } from '../core/deps.js'
import type { Actor } from '../core/principal.js'
import { type BotTokenError, type IssuedResourceToken, mintResourceToken } from './bot-token.js'
import type { ResourceAddress } from './resource-token-access.js'
import { RESOURCE_TOKEN } from './resource-token-kind.js'

/**
 * `POST /{projects,groups}/:id/access_tokens` as parsed: the token's fields and the bot's role
 * (`accessLevel`, GitLab's default Maintainer, 40).
 *
 * @example
 * ```ts
 * import type { ResourceTokenRequest } from 'patkit/authority'
 * const request: ResourceTokenRequest = { name: 'deploy', scopes: ['read_api'], expiresAt: '2030-01-01', accessLevel: 20 }
 * ```
 */
export interface ResourceTokenRequest {
  readonly name: string
  readonly scopes: readonly string[]
  readonly description?: string | null
  /** `YYYY-MM-DD`; absent is refused when expiry is required (`400 Bad request - expires_at is missing`). */
  readonly expiresAt?: string
  readonly accessLevel?: AccessLevel
}

/** Every way creating a resource token fails. */
export type CreateResourceTokenError = BotTokenError | ErrorOf<'insufficient_scope' | 'bad_request'>

/** GitLab's default role of a new resource token: Maintainer. */
export const DEFAULT_TOKEN_ACCESS_LEVEL: AccessLevel = 40

/**
 * GitLab's create: the caller's checks (`RESOURCE_TOKEN`'s admit: the resource in view, the right to
 * create, the role, a required expiry), then the request's, then the bot and its token.
 */
export function createResourceToken(
  deps: AuthorityDeps,
  actor: Actor,
  address: ResourceAddress,
  request: ResourceTokenRequest,
): ResultAsync<IssuedResourceToken, CreateResourceTokenError> {
  const { accessLevel = DEFAULT_TOKEN_ACCESS_LEVEL, ...fields } = request
  const target = { address, accessLevel, expiresAt: fields.expiresAt }
  return new ResultAsync(mintResourceToken(deps, RESOURCE_TOKEN, actor, target, fields))
}
