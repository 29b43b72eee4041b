import { err, ok, type Result } from 'neverthrow'
import { badRequest, notFound } from '../../domain/error-constructors.js'
import type { ErrorOf, StoreFailure } from '../../domain/errors.js'
import { PERSONAL_MINT } from '../../domain/mint-policy.js'
import type { AccessLevel, ResourceRef } from '../../domain/resource.js'
import { RESOURCE_BOT_SCOPES } from '../../domain/scopes.js'
import type { ResourceStore } from '../../store/resource-store.js'
import type { AuthorityDeps } from '../core/deps.js'
import type { TokenKind } from '../core/mint.js'
import { type Actor, actsAsAdmin } from '../core/principal.js'
import { requireResources } from '../core/resource-access.js'
import { requireScope, WRITE_SCOPES } from '../core/scope-policy.js'
import { type BotAdmission, botToMake } from './bot-token.js'
import { mayManage, type ResourceAddress, refOf, resourceInView } from './resource-token-access.js'

/** `POST /{projects,groups}/:id/access_tokens`: the resource as the request names it, and the request. */
export interface RouteResourceTarget {
  readonly address: ResourceAddress
  readonly accessLevel: AccessLevel
  /** Absent is refused while expiry is required. */
  readonly expiresAt: string | undefined
}

/** Every way the route's caller is refused a resource token. */
export type ResourceCallerError = StoreFailure | ErrorOf<'insufficient_scope' | 'not_found' | 'bad_request'>

// A resource token's policy: a personal token's, with `resource_bot_scopes` as the route's values.
const RESOURCE_MINT = {
  ...PERSONAL_MINT,
  scopes: { values: RESOURCE_BOT_SCOPES, unknown: 'invalid_parameter', adminOnlyNeedsAdmin: false },
  event: 'created',
} as const

/**
 * A project or group access token asked for through the route. `admit` holds GitLab's create checks
 * in its order: the `api` scope, the resource as the caller sees it (404),
 * `create_resource_access_tokens` (a Maintainer of a project, an Owner of a group, an administrator;
 * never a bot), the role at most the caller's own, a required expiry; the bot is made by the mint once
 * the request passed its own checks.
 */
export const RESOURCE_TOKEN = {
  name: 'resource',
  admit: async (
    deps: AuthorityDeps,
    actor: Actor,
    target: RouteResourceTarget,
  ): Promise<Result<BotAdmission, ResourceCallerError>> => {
    const scoped = requireScope(actor, WRITE_SCOPES)
    if (scoped.isErr()) return err(scoped.error)
    const view = await resourceInView(deps, actor, target.address)
    if (view.isErr()) return err(view.error)
    const { type } = target.address
    if (!mayManage(actor, type, view.value)) {
      return err(badRequest(`User does not have permission to create ${type} access token`))
    }
    if (!actsAsAdmin(actor) && (view.value.access === null || target.accessLevel > view.value.access)) {
      return err(badRequest('Access level of the token contains permissions not held by the creating user'))
    }
    if (target.expiresAt === undefined && deps.expiry.requireExpiry) {
      return err(badRequest('expires_at is missing'))
    }
    const resources = await requireResources(deps, 'createResourceToken')
    if (resources.isErr()) return err(resources.error)
    return ok(botAdmission(deps, resources.value, refOf(type, view.value), target.accessLevel, actor.user.id))
  },
  ...RESOURCE_MINT,
} as const satisfies TokenKind<Actor, RouteResourceTarget, ResourceCallerError, BotAdmission>

/** `issueResourceToken`'s target: the resource and the bot's role. */
export interface IssuedResourceTarget {
  readonly resource: ResourceRef
  readonly accessLevel: AccessLevel
}

/**
 * A resource token put in place without a caller (`issueResourceToken`): the resource must be stored
 * (`not_found` otherwise); the policy is the route's.
 */
export const ISSUED_RESOURCE_TOKEN = {
  name: 'issued_resource',
  admit: async (
    deps: AuthorityDeps,
    _caller: null,
    target: IssuedResourceTarget,
  ): Promise<Result<BotAdmission, StoreFailure | ErrorOf<'not_found'>>> => {
    const { resource } = target
    const resources = await requireResources(deps, 'issueResourceToken')
    if (resources.isErr()) return err(resources.error)
    const found = await (resource.type === 'project'
      ? resources.value.findProject(resource.id)
      : resources.value.findGroup(resource.id))
    if (found.isErr()) return err(found.error)
    if (found.value === null) return err(notFound(resource.type))
    return ok(botAdmission(deps, resources.value, resource, target.accessLevel, null))
  },
  ...RESOURCE_MINT,
} as const satisfies TokenKind<null, IssuedResourceTarget, StoreFailure | ErrorOf<'not_found'>, BotAdmission>

function botAdmission(
  deps: AuthorityDeps,
  resources: ResourceStore,
  resource: ResourceRef,
  accessLevel: AccessLevel,
  actorUserId: BotAdmission['actorUserId'],
): BotAdmission {
  return { owner: botToMake(deps, resources, resource, accessLevel), actorUserId, accessLevel, resource }
}
