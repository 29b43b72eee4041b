import { err, ok, type Result, ResultAsync } from 'neverthrow'
import { badRequest, notFound, unauthorized } from '../domain/error-constructors.js'
import type { ErrorOf, StoreFailure } from '../domain/errors.js'
import type { Group, Project, ResourceType } from '../domain/resource.js'
import type { PageRequest } from '../query/filter.js'
import type { Pagination } from '../query/pagination.js'
import { displayName, type User } from '../store/user.js'
import type { IssuedResourceToken } from './bot-token.js'
import type { AuthorityDeps } from './deps.js'
import { refuseGracedWrite } from './grace-window.js'
import {
  type IssueResourceTokenError,
  type IssueResourceTokenInput,
  issueResourceToken,
} from './issue-resource-token.js'
import { datedFilters, type ListRequest, listPage } from './list-tokens.js'
import type { Actor, Principal } from './principal.js'
import { hasFeature } from './release.js'
import type { ResourceInView } from './resource-access.js'
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
import {
  type CreateResourceTokenError,
  createResourceToken,
  type ResourceTokenRequest,
} from './resource-token-create.js'
import {
  type ResourceRotateError,
  type ResourceRotation,
  rotateResourceTokenRequest,
} from './resource-token-rotate.js'
import { type ResourceView, type ResourceViewError, viewGroup, viewProject } from './resource-views.js'
import { revokeStored } from './revoke-stored.js'
import type { RotateRequest } from './rotate-request.js'
import { READ_SCOPES, requireScope, WRITE_SCOPES } from './scope-policy.js'
import { type TokenAssociations, tokenAssociations } from './token-associations.js'

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
 * `/{projects,groups}/:id/access_tokens`). A resource is addressed by its type and `:id` (a number
 * or its full path); the tokens are those of the resource's bots.
 *
 * @example
 * ```ts
 * import type { ResourceTokenMethods } from 'patkit/authority'
 * declare const methods: ResourceTokenMethods
 * await methods.issueResourceToken({ resource: { type: 'project', id: 7 }, name: 'ci', scopes: ['read_api'] })
 * ```
 */
export interface ResourceTokenMethods {
  /**
   * `GET /projects/:id` (an id or a full path): the project as the caller (`null`: anonymous) may see
   * it; `not_found` for one they may not.
   *
   * @example
   * ```ts
   * const view = await authority.viewProject(principal, 'acme/api')
   * ```
   */
  viewProject(principal: Actor | null, ref: string): ResultAsync<ResourceView<Project>, ResourceViewError>
  /** `GET /groups/:id`, as `viewProject`. */
  viewGroup(principal: Actor | null, ref: string): ResultAsync<ResourceView<Group>, ResourceViewError>
  /** `GET /personal_access_tokens/self/associations`: the groups and projects the token's user reaches. */
  tokenAssociations(
    principal: Principal,
    request: { readonly minAccessLevel?: number; readonly page: PageRequest },
  ): ResultAsync<TokenAssociations, StoreFailure>
  /**
   * `GET /{projects,groups}/:id/access_tokens`: the resource's tokens, with the personal access token
   * list's filters (`state`, `revoked`, `search`, dates), sort and pages; a Maintainer (project), an
   * Owner (group) or an administrator.
   *
   * @example
   * ```ts
   * const page = await authority.listResourceTokens(principal, { type: 'project', id: 'acme/api' }, { filter: { state: 'active' } })
   * ```
   */
  listResourceTokens(
    principal: Actor,
    resource: ResourceAddress,
    request?: Omit<ListRequest, 'userRef'>,
  ): ResultAsync<ResourceTokenPage, ReadResourceTokenError>
  /**
   * `GET /{projects,groups}/:id/access_tokens/:token_id`.
   *
   * @example
   * ```ts
   * const found = await authority.getResourceToken(principal, { type: 'group', id: 3 }, 42)
   * ```
   */
  getResourceToken(
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
   * const created = await authority.createResourceToken(principal, { type: 'project', id: 7 }, {
   *   name: 'deploy', scopes: ['read_api'], expiresAt: '2030-01-01', accessLevel: 20,
   * })
   * ```
   */
  createResourceToken(
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
   * await authority.revokeResourceToken(principal, { type: 'project', id: 7 }, 42)
   * ```
   */
  revokeResourceToken(
    principal: Actor,
    resource: ResourceAddress,
    tokenId: number | string,
  ): ResultAsync<void, RevokeResourceTokenError>
  /**
   * `POST /{projects,groups}/:id/access_tokens/(:token_id|self)/rotate` in one call, as
   * `rotateRequest`: a revoked token presented is reuse (its descendants are revoked).
   *
   * @example
   * ```ts
   * import { ok } from 'neverthrow'
   *
   * const rotated = await authority.rotateResourceTokenRequest({ type: 'project', id: 7 }, { secret, ref: ok('self') })
   * ```
   */
  rotateResourceTokenRequest<E = never>(
    resource: ResourceAddress,
    request: RotateRequest<E>,
  ): ResultAsync<ResourceRotation, ResourceRotateError | E>
  /**
   * A token of a project or group put in place without a caller (an embedder's workspace or
   * organisation token): a bot, its membership with `accessLevel` (default 40), and the token.
   *
   * @example
   * ```ts
   * const issued = await authority.issueResourceToken({ resource: { type: 'group', id: 3 }, name: 'ci', scopes: ['read_api'] })
   * ```
   */
  issueResourceToken(
    input: IssueResourceTokenInput,
  ): ResultAsync<IssuedResourceToken, IssueResourceTokenError>
}

/** The {@link ResourceTokenMethods} over resolved dependencies: one spread into the authority. */
export function resourceTokenMethods(deps: AuthorityDeps): ResourceTokenMethods {
  return {
    listResourceTokens: (principal, resource, request = {}) =>
      new ResultAsync(listFor(deps, principal, resource, request)),
    viewProject: (principal, ref) => viewProject(deps, principal, ref),
    viewGroup: (principal, ref) => viewGroup(deps, principal, ref),
    tokenAssociations: (principal, request) => new ResultAsync(tokenAssociations(deps, principal, request)),
    getResourceToken: (principal, resource, tokenId) =>
      new ResultAsync(getFor(deps, principal, resource, tokenId)),
    createResourceToken: (principal, resource, request) =>
      refuseGracedWrite(principal) ?? createResourceToken(deps, principal, resource, request),
    revokeResourceToken: (principal, resource, tokenId) =>
      refuseGracedWrite(principal) ?? new ResultAsync(revokeFor(deps, principal, resource, tokenId)),
    rotateResourceTokenRequest: (resource, request) => rotateResourceTokenRequest(deps, resource, request),
    issueResourceToken: (input) => issueResourceToken(deps, input),
  }
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

async function getFor(
  deps: AuthorityDeps,
  actor: Actor,
  address: ResourceAddress,
  tokenId: number | string,
): Promise<Result<ResourceToken, ReadResourceTokenError>> {
  const view = await readable(deps, actor, address)
  if (view.isErr()) return err(view.error)
  const found = await tokenOfResource(deps, view.value, tokenId)
  if (found.isErr()) return err(found.error)
  if (found.value === null) return err(noResourceToken(address.type))
  return ok(asResourceToken(found.value.token, address.type, view.value))
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
  const found = await tokenOfResource(deps, view.value, tokenId)
  if (found.isErr()) return err(found.error)
  if (found.value === null) return err(noResourceToken(address.type))
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
