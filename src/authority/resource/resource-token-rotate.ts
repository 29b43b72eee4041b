import { err, ok, okAsync, type Result, ResultAsync } from 'neverthrow'
import { badRequest, notFound, unauthorized } from '../../domain/error-constructors.js'
import type { ErrorOf } from '../../domain/errors.js'
import { directAccess, type Group, type Project } from '../../domain/resource.js'
import type { Token } from '../../domain/token.js'
import type { AuthorityDeps } from '../core/deps.js'
import type { IssuedToken } from '../core/issued-token.js'
import { actsAsAdmin, type Principal, type TokenRef } from '../core/principal.js'
import { findResource, type ResourceInView } from '../core/resource-access.js'
import { rotateFound } from '../core/rotate.js'
import { checkRotation } from '../core/rotation-rule.js'
import {
  type RequestRotation,
  type RotateRequest,
  type RotateRequestError,
  type RotationStep,
  rotateRequestVia,
} from '../requests/rotate-request.js'
import {
  botOf,
  mayManage,
  type ResourceAddress,
  type ResourceToken,
  resourceInView,
  tokenOfResource,
} from './resource-token-access.js'

/**
 * A resource token's rotate request answered: the successor with its secret, as its resource shows it.
 *
 * @example
 * ```ts
 * import type { ResourceRotation } from 'patkit/authority'
 * declare const rotated: ResourceRotation
 * rotated.secret // the successor's, shown once
 * ```
 */
export interface ResourceRotation extends RequestRotation, Omit<ResourceToken, 'token'> {}

/** Every way a resource token's rotate request fails. */
export type ResourceRotateError = RotateRequestError | ErrorOf<'method_not_allowed'>

/**
 * `POST /{projects,groups}/:id/access_tokens/(:token_id|self)/rotate` in one call, in the order of
 * every rotate request (rotate-request.ts: a replay, then authentication, where a revoked token is
 * reuse and its descendants are revoked, then `sudo`), then this resource's rule ({@link resourceStep}).
 */
export function rotateResourceTokenRequest(
  deps: AuthorityDeps,
  address: ResourceAddress,
  request: RotateRequest,
): ResultAsync<ResourceRotation, ResourceRotateError> {
  return new ResultAsync(rotateRequestVia(deps, request, resourceStep(address))).andThen((rotated) => {
    if (!rotated.replayed) {
      const { inView, ...issued } = rotated
      return okAsync(shownIn(issued, address, inView))
    }
    // A replay (Idempotency-Key, the grace window) runs no step: the resource is read for the answer.
    return findResource(deps, address.type, address.id).map((resource) =>
      resource === null
        ? { ...rotated, accessLevel: null, resource: { type: address.type, id: 0 } }
        : shownIn(rotated, address, resource),
    )
  })
}

/** A rotation by the resource's step, with the resource as the caller saw it (for the answer). */
type InView = IssuedToken & { readonly inView: Group | Project }

function shownIn(
  rotated: RequestRotation,
  address: ResourceAddress,
  resource: Group | Project,
): ResourceRotation {
  const level = typeof rotated.token.userId === 'number' ? directAccess(resource, rotated.token.userId) : null
  return { ...rotated, accessLevel: level, resource: { type: address.type, id: resource.id } }
}

/** The resource an address names, whoever looks. */
/**
 * The resource's rule of a rotation. `self` (RSR): `api` or `self_rotate`, a bot's token only (405
 * for anyone else), the resource as the bot sees it (404), the bot a member of it (else 401); no role
 * check. By id (RAT): `api`, the resource (404), then a token of its bots that the caller may manage
 * (`manage_resource_access_tokens`), else 401, or 404 for an administrator; a token with a higher
 * role than the caller's is not eligible (400), unless the caller is an administrator.
 */
function resourceStep(address: ResourceAddress): RotationStep<ErrorOf<'method_not_allowed'>, InView> {
  return async (deps, principal, ref, options, digestOf) => {
    const allowed = checkRotation(deps, principal, ref)
    if (allowed.isErr()) return err(allowed.error)
    if (ref === 'self' && principal.user.bot !== true) return err({ type: 'method_not_allowed' })
    const view = await resourceInView(deps, principal, address)
    if (view.isErr()) return err(view.error)
    const target = await targetOf(deps, principal, address, view.value, ref)
    if (target.isErr()) return err(target.error)
    const rotated = await rotateFound(deps, principal, target.value, options, digestOf)
    return rotated.isErr() ? err(rotated.error) : ok({ ...rotated.value, inView: view.value.resource })
  }
}

async function targetOf(
  deps: AuthorityDeps,
  principal: Principal,
  address: ResourceAddress,
  view: ResourceInView<Group | Project>,
  ref: TokenRef,
): Promise<Result<Token, ErrorOf<'unauthorized' | 'not_found' | 'bad_request' | 'store_failure'>>> {
  if (ref === 'self') {
    const mine = await botOf(deps, view, principal.token)
    if (mine.isErr()) return err(mine.error)
    return mine.value === null ? err(unauthorized()) : ok(mine.value.token)
  }
  const admin = actsAsAdmin(principal)
  const refused = admin ? notFound('token') : unauthorized()
  const found = await tokenOfResource(deps, view, ref, refused)
  if (found.isErr()) return err(found.error)
  if (!mayManage(principal, address.type, view)) return err(refused)
  const { token } = found.value
  const level = typeof token.userId === 'number' ? directAccess(view.resource, token.userId) : null
  if (!admin && (level ?? 0) > (view.access ?? 0)) {
    return err(badRequest('Not eligible to rotate tokens with permissions not held by the user'))
  }
  return ok(token)
}
