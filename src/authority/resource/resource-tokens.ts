import { err, ok, type Result, ResultAsync } from 'neverthrow'
import { badRequest, notFound, unauthorized } from '../../domain/error-constructors.js'
import type { ErrorOf, StoreFailure } from '../../domain/errors.js'
import type { Group, Project, ResourceType } from '../../domain/resource.js'
import type { Pagination } from '../../query/pagination.js'
import { displayName, type User } from '../../store/user.js'
import type { AuthorityDeps } from '../core/deps.js'
import { datedFilters, type ListRequest, listPage } from '../core/list-tokens.js'
import type { Actor } from '../core/principal.js'
import { hasFeature } from '../core/release.js'
import type { ResourceInView } from '../core/resource-access.js'
import { revokeStored } from '../core/revoke-stored.js'
import { READ_SCOPES, requireScope, WRITE_SCOPES } from '../core/scope-policy.js'
import type { RotateRequest } from '../requests/rotate-request.js'
import type { IssuedResourceToken } from './bot-token.js'
import type { IssueResourceTokenError, IssueResourceTokenInput } from './issue-resource-token.js'
import {
  asResourceToken,
  mayAdminister,
  noResourceToken,
  type ResourceAddress,
  type ResourceToken,
  refOf,
  resourceInView,
  tokenOfResource,
} from './resource-token-access.js'
import type { CreateResourceTokenError, ResourceTokenRequest } from './resource-token-create.js'
import type { ResourceRotateError, ResourceRotation } from './resource-token-rotate.js'
import type { ResourceView, ResourceViewError } from './resource-views.js'

/**
 * One page of a project's or group's tokens with GitLab's pagination numbers.
 *
 * @example
 * ```ts
 * import type { ResourceTokenPage } from 'patkit/authority'
 * declare const page: ResourceTokenPage
 * page.items[0]?.accessLevel // 40
 * ```
 */
export interface ResourceTokenPage {
  readonly items: readonly ResourceToken[]
  readonly pagination: Pagination
}

/** Every way reading a resource's tokens fails. */
export type ReadResourceTokenError =
  | ErrorOf<'insufficient_scope' | 'unauthorized' | 'not_found'>
  | StoreFailure

/** Every way revoking a resource token fails. */
export type RevokeResourceTokenError =
  | ErrorOf<'insufficient_scope' | 'not_found' | 'bad_request' | 'token_revoked'>
  | StoreFailure

/**
 * The project and group access token methods of the authority (GitLab's
 * `/{projects,groups}/:id/access_tokens`), `authority.resources`. A resource is addressed by its type
 * and `:id` (a number or its full path); the tokens are those of the resource's bots.
 *
 * @example
 * ```ts
 * import type { ResourceTokenMethods } from 'patkit/authority'
 * declare const resources: ResourceTokenMethods
 * await resources.issue({ resource: { type: 'project', id: 7 }, name: 'ci', scopes: ['read_api'] })
 * ```
 */
export interface ResourceTokenMethods {
  /**
   * `GET /projects/:id`: a project by id or URL-encoded full path, as far as patkit holds it, when the
   * caller (or an anonymous one, `null`) may see it; else `not_found` (GitLab's `404 Project Not Found`).
   *
   * @example
   * ```ts
   * const view = await authority.resources.viewProject(principal, 'acme/api')
   * ```
   */
  viewProject(principal: Actor | null, ref: string): ResultAsync<ResourceView<Project>, ResourceViewError>
  /** `GET /groups/:id`, as `viewProject`. */
  viewGroup(principal: Actor | null, ref: string): ResultAsync<ResourceView<Group>, ResourceViewError>
  /**
   * `GET /{projects,groups}/:id/access_tokens`: the resource's tokens, with the personal access token
   * list's filters (`state`, `revoked`, `search`, dates), sort and pages; a Maintainer (project), an
   * Owner (group) or an administrator.
   *
   * @example
   * ```ts
   * const page = await authority.resources.list(principal, { type: 'project', id: 'acme/api' }, { filter: { state: 'active' } })
   * ```
   */
  list(
    principal: Actor,
    resource: ResourceAddress,
    request?: Omit<ListRequest, 'userRef'>,
  ): ResultAsync<ResourceTokenPage, ReadResourceTokenError>
  /**
   * `GET /{projects,groups}/:id/access_tokens/:token_id`.
   *
   * @example
   * ```ts
   * const found = await authority.resources.get(principal, { type: 'group', id: 3 }, 42)
   * ```
   */
  get(
    principal: Actor,
    resource: ResourceAddress,
    tokenId: number | string,
  ): ResultAsync<ResourceToken, ReadResourceTokenError>
  /**
   * `POST /{projects,groups}/:id/access_tokens`: a bot user for the token, a member of the resource
   * with `accessLevel` (default 40, at most the caller's own), and its token.
   *
   * @example
   * ```ts
   * const created = await authority.resources.create(principal, { type: 'project', id: 7 }, {
   *   name: 'deploy', scopes: ['read_api'], expiresAt: '2030-01-01', accessLevel: 20,
   * })
   * ```
   */
  create(
    principal: Actor,
    resource: ResourceAddress,
    request: ResourceTokenRequest,
  ): ResultAsync<IssuedResourceToken, CreateResourceTokenError | ErrorOf<'token_revoked'>>
  /**
   * `DELETE /{projects,groups}/:id/access_tokens/:token_id`: an unknown token is `not_found` before
   * any permission check; a caller who may not is `bad_request` ("<caller> cannot delete <bot>").
   * From 17.9 the bot and its membership stay (the token is listed as revoked); before, the bot is
   * blocked and leaves the resource, so the token leaves the list.
   *
   * @example
   * ```ts
   * await authority.resources.revoke(principal, { type: 'project', id: 7 }, 42)
   * ```
   */
  revoke(
    principal: Actor,
    resource: ResourceAddress,
    tokenId: number | string,
  ): ResultAsync<void, RevokeResourceTokenError>
  /**
   * `POST /{projects,groups}/:id/access_tokens/(:token_id|self)/rotate` in one call, as
   * `requests.rotateRequest`: a revoked token presented is reuse (its descendants are revoked).
   *
   * @example
   * ```ts
   * import { ok } from 'neverthrow'
   *
   * const rotated = await authority.resources.rotateRequest({ type: 'project', id: 7 }, { secret, ref: ok('self') })
   * ```
   */
  rotateRequest(
    resource: ResourceAddress,
    request: RotateRequest,
  ): ResultAsync<ResourceRotation, ResourceRotateError>
  /**
   * A token of a project or group put in place without a caller (an embedder's workspace or
   * organisation token): a bot, its membership with `accessLevel` (default 40), and the token.
   *
   * @example
   * ```ts
   * const issued = await authority.resources.issue({ resource: { type: 'group', id: 3 }, name: 'ci', scopes: ['read_api'] })
   * ```
   */
  issue(input: IssueResourceTokenInput): ResultAsync<IssuedResourceToken, IssueResourceTokenError>
}

/** The resource, once the caller may read its tokens: `read_resource_access_tokens` (else 401). */
async function readable(
  deps: AuthorityDeps,
  actor: Actor,
  address: ResourceAddress,
): Promise<Result<ResourceInView<Group | Project>, ReadResourceTokenError>> {
  const scoped = requireScope(actor, READ_SCOPES)
  if (scoped.isErr()) return err(scoped.error)
  const view = await resourceInView(deps, actor, address)
  if (view.isErr()) return err(view.error)
  return mayAdminister(actor, address.type, view.value) ? ok(view.value) : err(unauthorized())
}

/** `resources.list`. */
export function listResourceTokens(
  deps: AuthorityDeps,
  actor: Actor,
  address: ResourceAddress,
  request: Omit<ListRequest, 'userRef'>,
): ResultAsync<ResourceTokenPage, ReadResourceTokenError> {
  return new ResultAsync(listFor(deps, actor, address, request))
}

async function listFor(
  deps: AuthorityDeps,
  actor: Actor,
  address: ResourceAddress,
  request: Omit<ListRequest, 'userRef'>,
): Promise<Result<ResourceTokenPage, ReadResourceTokenError>> {
  const view = await readable(deps, actor, address)
  if (view.isErr()) return err(view.error)
  const filter = {
    ...datedFilters(deps, request.filter ?? {}),
    resource: refOf(address.type, view.value),
    excludeImpersonation: true,
  }
  const listed = await listPage(deps, filter, request)
  if (listed.isErr()) return err(listed.error)
  const items = listed.value.items.map((token) => asResourceToken(token, address.type, view.value))
  return ok({ items, pagination: listed.value.pagination })
}

/** `resources.get`. */
export function getResourceToken(
  deps: AuthorityDeps,
  actor: Actor,
  address: ResourceAddress,
  tokenId: number | string,
): ResultAsync<ResourceToken, ReadResourceTokenError> {
  return new ResultAsync(getFor(deps, actor, address, tokenId))
}

async function getFor(
  deps: AuthorityDeps,
  actor: Actor,
  address: ResourceAddress,
  tokenId: number | string,
): Promise<Result<ResourceToken, ReadResourceTokenError>> {
  const view = await readable(deps, actor, address)
  if (view.isErr()) return err(view.error)
  const found = await tokenOfResource(deps, view.value, tokenId, noResourceToken(address.type))
  if (found.isErr()) return err(found.error)
  return ok(asResourceToken(found.value.token, address.type, view.value))
}

/** `resources.revoke` (the grace window checked by the caller). */
export function revokeResourceToken(
  deps: AuthorityDeps,
  actor: Actor,
  address: ResourceAddress,
  tokenId: number | string,
): ResultAsync<void, RevokeResourceTokenError> {
  return new ResultAsync(revokeFor(deps, actor, address, tokenId))
}

async function revokeFor(
  deps: AuthorityDeps,
  actor: Actor,
  address: ResourceAddress,
  tokenId: number | string,
): Promise<Result<void, RevokeResourceTokenError>> {
  const scoped = requireScope(actor, WRITE_SCOPES)
  if (scoped.isErr()) return err(scoped.error)
  const view = await resourceInView(deps, actor, address)
  if (view.isErr()) return err(view.error)
  const found = await tokenOfResource(deps, view.value, tokenId, noResourceToken(address.type))
  if (found.isErr()) return err(found.error)
  const { token, bot } = found.value
  if (!mayAdminister(actor, address.type, view.value)) {
    return err(badRequest(`${displayName(actor.user)} cannot delete ${displayName(bot)}`))
  }
  const outcome = await revokeStored(deps, actor.user.id, token)
  if (outcome.isErr()) return err(outcome.error)
  if (outcome.value === 'missing') return err(notFound('token'))
  if (hasFeature('resource_token_retained', deps.release)) return ok(undefined)
  return removeBot(deps, address.type, view.value.resource, bot)
}

/**
 * Before 17.9 GitLab deleted a revoked token's bot (a ghost-user migration): the bot leaves the
 * resource, so the token leaves the list, and is blocked, so none of its tokens authenticates.
 */
async function removeBot(
  deps: AuthorityDeps,
  type: ResourceType,
  resource: Group | Project,
  bot: User,
): Promise<Result<void, StoreFailure>> {
  const resources = deps.store.resources
  if (resources === undefined) return ok(undefined)
  // One row removed, never the list read at the start rewritten: a bot created meanwhile stays.
  if (typeof bot.id === 'number') {
    const removed = await resources.removeMember({ type, id: resource.id }, bot.id)
    if (removed.isErr()) return err(removed.error)
  }
  const blocked = await deps.store.putUser({ ...bot, blocked: true })
  return blocked.isErr() ? err(blocked.error) : ok(undefined)
}
