import { err, ok, type Result } from 'neverthrow'
import type { Principal } from '../authority/core/principal.js'
import { forbidden, notFound, storeFailure } from '../domain/error-constructors.js'
import type { PatkitError } from '../domain/errors.js'
import { type AccessLevel, directAccess, isAccessLevel, type ResourceType } from '../domain/resource.js'
import type { ResourceStore } from '../store/resource-store.js'

/**
 * The resource a guarded route belongs to: a token passes only when its user is a bot of that
 * project or group (a resource access token: the bot's `botNamespace` is this resource) and, with
 * `minAccessLevel`, the bot's role there is at least that (10 Guest ... 50 Owner). `id` is the
 * resource's id, or a string: digits are the id, anything else its full path (`acme/api`, any case,
 * looked up in the guard's `resources`).
 *
 * @example
 * ```ts
 * import type { ResourceRequirement } from 'patkit/http'
 * const developers: ResourceRequirement = { type: 'project', id: 7, minAccessLevel: 30 }
 * const byPath: ResourceRequirement = { type: 'group', id: 'acme' }
 * ```
 */
export interface ResourceRequirement {
  readonly type: ResourceType
  readonly id: number | string
  readonly minAccessLevel?: AccessLevel
}

/**
 * A guard's `resource` option: the requirement itself, or a function of the framework's request that
 * gives it (a route parameter: `(req) => ({ type: 'project', id: req.params.id })`). `A` is what the
 * guard passes the function: `[request]`, or `[request, context]` for Next.js.
 *
 * @example
 * ```ts
 * import type { ResourceOption } from 'patkit/http'
 * const fromPath: ResourceOption<[Request]> = (request) => ({
 *   type: 'project',
 *   id: new URL(request.url).pathname.split('/')[2] ?? '',
 * })
 * ```
 */
export type ResourceOption<A extends unknown[] = unknown[]> =
  | ResourceRequirement
  | ((...args: A) => ResourceRequirement | Promise<ResourceRequirement>)

const TYPES: readonly unknown[] = ['project', 'group']
const DIGITS = /^\d+$/

/**
 * Throws, where a guard is built, for a requirement no request could meet or check: a `TypeError` for
 * a `type` other than `project`/`group`, or for a `minAccessLevel` or a full path without `resources`
 * to read them from; a `RangeError` for a `minAccessLevel` that is not an access level. A function
 * form is checked the same way on each request (a throw there is the application's 500).
 */
export function checkResource(
  resource: ResourceRequirement | ((...args: never) => unknown) | undefined,
  resources: ResourceStore | undefined,
): void {
  if (resource === undefined || typeof resource === 'function') return
  checkRequirement(resource, resources)
}

function checkRequirement(requirement: ResourceRequirement, resources: ResourceStore | undefined): void {
  if (!TYPES.includes(requirement.type)) {
    throw new TypeError(
      `patkit guard: resource.type must be 'project' or 'group', got ${JSON.stringify(requirement.type)}`,
    )
  }
  const level = requirement.minAccessLevel
  if (level !== undefined && !isAccessLevel(level)) {
    throw new RangeError(
      `patkit guard: resource.minAccessLevel must be one of 10, 15, 20, 30, 40, 50, got ${JSON.stringify(level)}`,
    )
  }
  if (resources !== undefined) return
  if (level !== undefined) {
    throw new TypeError(
      'patkit guard: resource.minAccessLevel reads the bot’s membership: pass resources (store.resources) as well',
    )
  }
  if (typeof requirement.id === 'string' && !DIGITS.test(requirement.id)) {
    throw new TypeError(
      `patkit guard: resource.id ${JSON.stringify(requirement.id)} is a full path: pass resources (store.resources) to look it up`,
    )
  }
}

/**
 * Whether the principal's token belongs to the resource: 404 `Project Not Found`/`Group Not Found`
 * for any other token (a human's, another resource's bot; GitLab's answer for a resource the caller
 * cannot see), 403 `403 Forbidden` for a bot of the resource below `minAccessLevel`.
 */
export async function requireResource(
  principal: Principal,
  requirement: ResourceRequirement,
  resources: ResourceStore | undefined,
): Promise<Result<Principal, PatkitError>> {
  checkRequirement(requirement, resources)
  const { type } = requirement
  const namespace = principal.user.botNamespace
  if (
    principal.user.bot !== true ||
    namespace === undefined ||
    namespace === null ||
    namespace.type !== type
  ) {
    return err(notFound(type))
  }
  const id = await resourceId(requirement, resources)
  if (id.isErr()) return err(id.error)
  if (id.value !== namespace.id) return err(notFound(type))
  if (requirement.minAccessLevel === undefined || resources === undefined) return ok(principal)
  const found = await (type === 'project' ? resources.findProject(id.value) : resources.findGroup(id.value))
  if (found.isErr()) return err(found.error)
  if (found.value === null || typeof principal.user.id !== 'number') return err(notFound(type))
  const level = directAccess(found.value, principal.user.id)
  // A bot that is no longer a member is not the resource's any more.
  if (level === null) return err(notFound(type))
  return level >= requirement.minAccessLevel ? ok(principal) : err(forbidden())
}

/** The resource's id: the number, a string of digits, or the id of the resource at a full path. */
async function resourceId(
  requirement: ResourceRequirement,
  resources: ResourceStore | undefined,
): Promise<Result<number | null, PatkitError>> {
  const { id, type } = requirement
  if (typeof id === 'number') return ok(id)
  if (DIGITS.test(id)) return ok(Number(id))
  if (resources === undefined) {
    return err(storeFailure('guard resource', new Error('a full path needs the guard’s resources option')))
  }
  const found = await (type === 'project' ? resources.findProject(id) : resources.findGroup(id))
  if (found.isErr()) return err(found.error)
  return ok(found.value?.id ?? null)
}
