import { errAsync, okAsync, type ResultAsync } from 'neverthrow'
import { notFound, storeFailure } from '../../domain/error-constructors.js'
import type { ErrorOf, StoreFailure } from '../../domain/errors.js'
import {
  type AccessLevel,
  effectiveAccess,
  type Group,
  type Project,
  type ResourceType,
} from '../../domain/resource.js'
import type { ResourceStore } from '../../store/resource-store.js'
import type { User } from '../../store/user.js'
import type { AuthorityDeps } from './deps.js'
import { type Actor, actsAsAdmin } from './principal.js'

/** A project or group as one caller sees it: the groups above it and the caller's access there. */
export interface ResourceInView<T extends Group | Project> {
  readonly resource: T
  /** The resource, then its group or parent, up to the top-level group. */
  readonly chain: readonly (Group | Project)[]
  /** The caller's `max_member_access` here; `null` when a member of none of the chain. */
  readonly access: AccessLevel | null
  /** The top-level group (a project's without a group: none). */
  readonly root: Group | null
}

export type ResourceLookupError = ErrorOf<'not_found'> | StoreFailure

const DIGITS = /^\d+$/
// A cycle in seeded parents must not loop forever: GitLab's nesting limit is 20.
const MAX_DEPTH = 21

// `:id` as the URL had it: digits are an id, anything else a full path.
function storeRef(ref: string | number): number | string {
  return typeof ref === 'string' && DIGITS.test(ref) ? Number(ref) : ref
}

function resourcesOf(deps: AuthorityDeps): ResourceStore | undefined {
  return deps.store.resources
}

function groupsAbove(
  resources: ResourceStore,
  parentId: number | null,
  found: readonly Group[] = [],
): ResultAsync<readonly Group[], StoreFailure> {
  if (parentId === null || found.length >= MAX_DEPTH) return okAsync(found)
  return resources
    .findGroup(parentId)
    .andThen((group) =>
      group === null ? okAsync(found) : groupsAbove(resources, group.parentId, [...found, group]),
    )
}

// GitLab's `find_project!`/`find_group!`: a resource the caller may not read is reported as missing.
// Public: anyone; internal: any signed-in user; private: members (through any group above) and
// administrators.
function visible(resource: Group | Project, viewer: User | null, access: AccessLevel | null): boolean {
  if (resource.visibility === 'public') return true
  if (viewer === null) return false
  if (resource.visibility === 'internal') return true
  return viewer.admin || access !== null
}

function inView<T extends Group | Project>(
  resources: ResourceStore,
  type: ResourceType,
  resource: T | null,
  parentId: (resource: T) => number | null,
  viewer: User | null,
): ResultAsync<ResourceInView<T>, ResourceLookupError> {
  if (resource === null) return errAsync(notFound(type))
  return groupsAbove(resources, parentId(resource)).andThen((groups) => {
    const chain = [resource, ...groups]
    const access = viewer === null || typeof viewer.id !== 'number' ? null : effectiveAccess(chain, viewer.id)
    if (!visible(resource, viewer, access)) return errAsync(notFound(type))
    const top = type === 'group' ? (chain[chain.length - 1] as Group) : (groups[groups.length - 1] ?? null)
    return okAsync({ resource, chain, access, root: top })
  })
}

/**
 * The user a lookup sees the resource as: the actor's user, an administrator only when acting as one
 * (Admin Mode honoured; a session principal never is).
 */
export function viewerOf(actor: Actor): User {
  return { ...actor.user, admin: actsAsAdmin(actor) }
}

/**
 * The project `:id` names (an id, or a full path as the URL had it, decoded), as `viewer` may see it;
 * `not_found` (`404 Project Not Found`) when there is none, the store holds no projects, or the viewer
 * may not read it.
 */
export function projectInView(
  deps: AuthorityDeps,
  viewer: User | null,
  ref: string,
): ResultAsync<ResourceInView<Project>, ResourceLookupError> {
  const resources = resourcesOf(deps)
  if (resources === undefined) return errAsync(notFound('project'))
  return resources
    .findProject(storeRef(ref))
    .andThen((project) => inView(resources, 'project', project, (found) => found.groupId, viewer))
}

/** The group `:id` names, as {@link projectInView} for projects (`404 Group Not Found`). */
export function groupInView(
  deps: AuthorityDeps,
  viewer: User | null,
  ref: string,
): ResultAsync<ResourceInView<Group>, ResourceLookupError> {
  const resources = resourcesOf(deps)
  if (resources === undefined) return errAsync(notFound('group'))
  return resources
    .findGroup(storeRef(ref))
    .andThen((group) => inView(resources, 'group', group, (found) => found.parentId, viewer))
}

/** The store's resources, or a store failure naming the operation when the store has none. */
export function requireResources(
  deps: AuthorityDeps,
  operation: string,
): ResultAsync<ResourceStore, StoreFailure> {
  const resources = resourcesOf(deps)
  return resources === undefined
    ? errAsync(storeFailure(operation, new Error('the store holds no projects or groups (store.resources)')))
    : okAsync(resources)
}

/**
 * The project or group `ref` names (an id, or a full path), as stored, whoever asks: for an answer
 * about a resource already authorised; `null` when there is none or the store holds no resources.
 */
export function findResource(
  deps: AuthorityDeps,
  type: ResourceType,
  ref: number | string,
): ResultAsync<Group | Project | null, StoreFailure> {
  const resources = resourcesOf(deps)
  if (resources === undefined) return okAsync(null)
  return type === 'project' ? resources.findProject(storeRef(ref)) : resources.findGroup(storeRef(ref))
}
