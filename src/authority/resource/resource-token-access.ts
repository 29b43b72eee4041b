import { err, ok, type Result, type ResultAsync } from 'neverthrow'
import { notFound } from '../../domain/error-constructors.js'
import type { ErrorOf, StoreFailure } from '../../domain/errors.js'
import {
  type AccessLevel,
  directAccess,
  type Group,
  type Project,
  type ResourceRef,
  type ResourceType,
} from '../../domain/resource.js'
import type { Token } from '../../domain/token.js'
import type { User } from '../../store/user.js'
import type { AuthorityDeps } from '../core/deps.js'
import { type Actor, actsAsAdmin } from '../core/principal.js'
import { groupInView, projectInView, type ResourceInView, viewerOf } from '../core/resource-access.js'
import { findTokenBy, onlyTokens } from '../core/token-access.js'

/**
 * A project or group as a request names it: its type and its `:id`, a number or a full path
 * (`acme/api`, decoded).
 *
 * @example
 * ```ts
 * import type { ResourceAddress } from 'patkit/authority'
 * const address: ResourceAddress = { type: 'project', id: 'acme/api' }
 * ```
 */
export interface ResourceAddress {
  readonly type: ResourceType
  readonly id: number | string
}

/**
 * A project or group access token as GitLab's `ResourceAccessToken` entity shows it: the token, its
 * bot's role in the resource, and the resource.
 *
 * @example
 * ```ts
 * import type { ResourceToken } from 'patkit/authority'
 * declare const listed: ResourceToken
 * listed.accessLevel // 40
 * ```
 */
export interface ResourceToken {
  readonly token: Token
  /** The bot's role in the resource; `null` when it is no member any more. */
  readonly accessLevel: AccessLevel | null
  readonly resource: ResourceRef
}

/** The resource a request names, as its caller sees it (GitLab's `find_project!`/`find_group!`). */
export function resourceInView(
  deps: AuthorityDeps,
  actor: Actor,
  address: ResourceAddress,
): ResultAsync<ResourceInView<Group | Project>, ErrorOf<'not_found'> | StoreFailure> {
  const viewer = viewerOf(actor)
  const ref = String(address.id)
  return address.type === 'project' ? projectInView(deps, viewer, ref) : groupInView(deps, viewer, ref)
}

// GitLab's `admin_project` (Maintainer) and `admin_group` (Owner): who reads, revokes and manages.
const ADMINISTERING_LEVEL = { project: 40, group: 50 } as const

/** `read_`/`destroy_resource_access_tokens`: an administrator, or a Maintainer (project) or Owner (group). */
export function mayAdminister(
  actor: Actor,
  type: ResourceType,
  view: ResourceInView<Group | Project>,
): boolean {
  return actsAsAdmin(actor) || (view.access ?? 0) >= ADMINISTERING_LEVEL[type]
}

/** `create_`/`manage_resource_access_tokens`: as {@link mayAdminister}, and never a bot (`project_bot_access`). */
export function mayManage(actor: Actor, type: ResourceType, view: ResourceInView<Group | Project>): boolean {
  return actor.user.bot !== true && mayAdminister(actor, type, view)
}

/** The resource's reference: its type and id. */
export function refOf(type: ResourceType, view: ResourceInView<Group | Project>): ResourceRef {
  return { type, id: view.resource.id }
}

/** A token as its resource shows it. */
export function asResourceToken(
  token: Token,
  type: ResourceType,
  view: ResourceInView<Group | Project>,
): ResourceToken {
  const accessLevel = typeof token.userId === 'number' ? directAccess(view.resource, token.userId) : null
  return { token, accessLevel, resource: refOf(type, view) }
}

/**
 * GitLab's `find_token(resource, token_id)`: the token with that id when its owner is one of the
 * resource's bots (a bot user that is a member) and it is no impersonation token; `missing` otherwise
 * (a `token_id` that is no number finds none). Answers the bot too.
 */
export async function tokenOfResource<E>(
  deps: AuthorityDeps,
  view: ResourceInView<Group | Project>,
  tokenId: number | string,
  missing: E,
): Promise<Result<{ token: Token; bot: User }, E | StoreFailure>> {
  const id = typeof tokenId === 'number' ? tokenId : /^\d{1,15}$/.test(tokenId) ? Number(tokenId) : null
  if (id === null) return err(missing)
  const found = await findTokenBy(
    deps,
    id,
    onlyTokens(missing, (token) => memberToken(view, token)),
  )
  if (found.isErr()) return err(found.error)
  const bot = await botOf(deps, view, found.value)
  if (bot.isErr()) return err(bot.error)
  return bot.value === null ? err(missing) : ok(bot.value)
}

/** A token whose owner is a direct member of the resource, and no impersonation token. */
function memberToken(view: ResourceInView<Group | Project>, token: Token): boolean {
  return (
    !token.impersonation &&
    typeof token.userId === 'number' &&
    directAccess(view.resource, token.userId) !== null
  )
}

/** The token's bot when it is one of the resource's bots; `null` otherwise. */
export async function botOf(
  deps: AuthorityDeps,
  view: ResourceInView<Group | Project>,
  token: Token | null,
): Promise<Result<{ token: Token; bot: User } | null, StoreFailure>> {
  if (token === null || !memberToken(view, token) || typeof token.userId !== 'number') return ok(null)
  const owner = await deps.userById(token.userId)
  if (owner.isErr()) return err(owner.error)
  return owner.value !== null && owner.value.bot === true ? ok({ token, bot: owner.value }) : ok(null)
}

/** `not_found!("#{source_type} Access Token")`. */
export function noResourceToken(type: ResourceType): ErrorOf<'not_found'> {
  return notFound(type === 'project' ? 'project_access_token' : 'group_access_token')
}
