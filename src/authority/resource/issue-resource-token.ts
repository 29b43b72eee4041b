import { errAsync, ResultAsync } from 'neverthrow'
import { invalidParameter } from '../../domain/error-constructors.js'
import { type AccessLevel, isAccessLevel, type ResourceRef } from '../../domain/resource.js'
import type { AuthorityDeps } from '../core/deps.js'
import { type BotTokenError, type IssuedResourceToken, mintResourceToken } from './bot-token.js'
import { DEFAULT_TOKEN_ACCESS_LEVEL } from './resource-token-create.js'
import { ISSUED_RESOURCE_TOKEN } from './resource-token-kind.js'

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
  /** One of `ACCESS_LEVELS` (another is `invalid_parameter` on `access_level`); default 40. */
  readonly accessLevel?: AccessLevel
  /**
   * `YYYY-MM-DD`, within the creation window (with `requireExpiry`, at most `maxLifetimeDays` ahead,
   * else `invalid_expiry`; a past day makes an expired token). Absent or `null`: as `issueToken`'s
   * absent, today + `maxLifetimeDays` when expiry is required, else never; not the route's
   * "expires_at is missing", which is a rule of the request's parameters.
   */
  readonly expiresAt?: string | null
  readonly description?: string | null
}

/**
 * Every way `issueResourceToken` fails: `not_found` names a project or group the store does not hold;
 * `invalid_parameter` a scope outside `resource_bot_scopes` or an unknown access level.
 */
export type IssueResourceTokenError = BotTokenError

/**
 * The embedders' one call: the bot, its membership and the token (bot-token.ts). Every refusal comes
 * before the bot is made. Unlike `issueToken` (seeds and fixtures), it keeps the creation window: a
 * workspace's token is a live one, so `null` is no "never" while expiry is required.
 */
export function issueResourceToken(
  deps: AuthorityDeps,
  input: IssueResourceTokenInput,
): ResultAsync<IssuedResourceToken, IssueResourceTokenError> {
  const { resource, accessLevel = DEFAULT_TOKEN_ACCESS_LEVEL, expiresAt, description, name, scopes } = input
  // The type says AccessLevel; an embedder's JavaScript may still pass another number.
  if (!isAccessLevel(accessLevel)) return errAsync(invalidParameter('access_level', 'not_allowed_value'))
  const request = {
    name,
    scopes,
    ...(expiresAt === undefined ? {} : { expiresAt }),
    ...(description === undefined ? {} : { description }),
  }
  return new ResultAsync(
    mintResourceToken(deps, ISSUED_RESOURCE_TOKEN, null, { resource, accessLevel }, request),
  )
}
