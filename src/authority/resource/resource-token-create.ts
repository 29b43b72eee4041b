import { err, type Result, ResultAsync } from 'neverthrow'
import { badRequest } from '../../domain/error-constructors.js'
import type { ErrorOf } from '../../domain/errors.js'
import type { AccessLevel } from '../../domain/resource.js'
import type { AuthorityDeps } from '../core/deps.js'
import { type Actor, actsAsAdmin } from '../core/principal.js'
import { requireScope, WRITE_SCOPES } from '../core/scope-policy.js'
import { type BotTokenError, type IssuedResourceToken, mintBotToken } from './bot-token.js'
import { mayManage, type ResourceAddress, refOf, resourceInView } from './resource-token-access.js'

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
 * GitLab's create: the resource as the caller sees it (404), `create_resource_access_tokens` (a
 * Maintainer of a project, an Owner of a group, an administrator; never a bot), the role at most the
 * caller's own, then the expiry rule and the bot token (bot-token.ts).
 */
export function createResourceToken(
  deps: AuthorityDeps,
  actor: Actor,
  address: ResourceAddress,
  request: ResourceTokenRequest,
): ResultAsync<IssuedResourceToken, CreateResourceTokenError> {
  return new ResultAsync(createFor(deps, actor, address, request))
}

async function createFor(
  deps: AuthorityDeps,
  actor: Actor,
  address: ResourceAddress,
  request: ResourceTokenRequest,
): Promise<Result<IssuedResourceToken, CreateResourceTokenError>> {
  const scoped = requireScope(actor, WRITE_SCOPES)
  if (scoped.isErr()) return err(scoped.error)
  const view = await resourceInView(deps, actor, address)
  if (view.isErr()) return err(view.error)
  const { type } = address
  if (!mayManage(actor, type, view.value)) {
    return err(badRequest(`User does not have permission to create ${type} access token`))
  }
  const { accessLevel = DEFAULT_TOKEN_ACCESS_LEVEL, ...fields } = request
  if (!actsAsAdmin(actor) && (view.value.access === null || accessLevel > view.value.access)) {
    return err(badRequest('Access level of the token contains permissions not held by the creating user'))
  }
  if (fields.expiresAt === undefined && deps.expiry.requireExpiry) {
    return err(badRequest('expires_at is missing'))
  }
  return mintBotToken(deps, actor.user.id, refOf(type, view.value), { ...fields, accessLevel })
}
