import { errAsync, ResultAsync } from 'neverthrow'
import { notFound } from '../domain/error-constructors.js'
import type { AccessLevel, ResourceRef } from '../domain/resource.js'
import { type BotTokenError, type IssuedResourceToken, mintBotToken } from './bot-token.js'
import type { AuthorityDeps } from './deps.js'
import { requireResources } from './resource-access.js'
import { DEFAULT_TOKEN_ACCESS_LEVEL } from './resource-token-create.js'

/**
 * A token that belongs to a project or group (an embedder's workspace or organisation), put in place
 * without a caller: a bot user is made for it, a member of the resource with `accessLevel` (default
 * 40), and the token minted for the bot, as `POST /{projects,groups}/:id/access_tokens` does.
 *
 * @example
 * ```ts
 * import type { IssueResourceTokenInput } from 'patkit/authority'
 * const input: IssueResourceTokenInput = {
 *   resource: { type: 'group', id: 3 }, name: 'ci', scopes: ['read_api'], accessLevel: 30, expiresAt: '2030-01-01',
 * }
 * ```
 */
export interface IssueResourceTokenInput {
  /** The project or group; it must exist in `store.resources`. */
  readonly resource: ResourceRef
  readonly name: string
  /** Of GitLab's `resource_bot_scopes` (every non-administrator scope but `read_user`). */
  readonly scopes: readonly string[]
  readonly accessLevel?: AccessLevel
  /** `YYYY-MM-DD`; `null` or absent: today + the maximum lifetime when expiry is required, else never. */
  readonly expiresAt?: string | null
  readonly description?: string | null
}

/** Every way `issueResourceToken` fails: `not_found` names a project or group the store does not hold. */
export type IssueResourceTokenError = BotTokenError

/** The embedders' one call: the bot, its membership and the token (bot-token.ts). */
export function issueResourceToken(
  deps: AuthorityDeps,
  input: IssueResourceTokenInput,
): ResultAsync<IssuedResourceToken, IssueResourceTokenError> {
  const { resource, accessLevel = DEFAULT_TOKEN_ACCESS_LEVEL, expiresAt, description, name, scopes } = input
  const request = {
    name,
    scopes,
    accessLevel,
    ...(expiresAt === undefined ? {} : { expiresAt }),
    ...(description === undefined ? {} : { description }),
  }
  return requireResources(deps, 'issueResourceToken')
    .andThen((resources) =>
      resource.type === 'project' ? resources.findProject(resource.id) : resources.findGroup(resource.id),
    )
    .andThen((found) =>
      found === null
        ? errAsync(notFound(resource.type))
        : new ResultAsync(mintBotToken(deps, null, resource, request)),
    )
}
