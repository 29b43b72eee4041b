import { errAsync, okAsync, type ResultAsync } from 'neverthrow'
import { forbidden } from '../../domain/error-constructors.js'
import type { ErrorOf, StoreFailure } from '../../domain/errors.js'
import type { AccessLevel, Group, Project, ResourceRef, ResourceType } from '../../domain/resource.js'
import type { ResourceStore } from '../../store/resource-store.js'
import type { AuthorityDeps } from '../core/deps.js'
import type { Actor } from '../core/principal.js'
import {
  groupInView,
  projectInView,
  type ResourceInView,
  type ResourceLookupError,
  viewerOf,
} from '../core/resource-access.js'
import { requireScope } from '../core/scope-policy.js'

/** Every way reaching a project's or group's hooks or audit events fails. */
export type HookOwnerError = ErrorOf<'not_found' | 'forbidden' | 'insufficient_scope'> | StoreFailure

/** The project or group a caller may act on, with what they may see there. */
export interface HookOwner {
  readonly resources: ResourceStore
  readonly resource: Group | Project
  readonly ref: ResourceRef
  /** The caller's access there (`null`: none); administrators' is theirs as members. */
  readonly access: AccessLevel | null
  readonly admin: boolean
  /** The caller's user id when an integer (audit events' author), else `null`. */
  readonly userId: number | null
}

/**
 * The project or group `:id` names, for a caller with one of `scopes`: `not_found` (`404 Project Not
 * Found`) when they may not see it; when `minLevel` is given, `forbidden` (`403 Forbidden`) below it,
 * administrators excepted (GitLab's `authorize!`).
 */
export function hookOwner(
  deps: AuthorityDeps,
  principal: Actor,
  type: ResourceType,
  ref: string,
  scopes: readonly string[],
  minLevel: AccessLevel | null,
): ResultAsync<HookOwner, HookOwnerError> {
  const scoped = requireScope(principal, scopes)
  if (scoped.isErr()) return errAsync(scoped.error)
  const resources = deps.store.resources
  const viewer = viewerOf(principal)
  const found: ResultAsync<ResourceInView<Group | Project>, ResourceLookupError> = type === 'project'
    ? projectInView(deps, viewer, ref)
    : groupInView(deps, viewer, ref)
  return found.andThen((view) => {
    if (resources === undefined) return errAsync(forbidden())
    const owner: HookOwner = {
      resources,
      resource: view.resource,
      ref: { type, id: view.resource.id },
      access: view.access,
      admin: viewer.admin,
      userId: typeof viewer.id === 'number' ? viewer.id : null,
    }
    if (minLevel === null || owner.admin || (owner.access !== null && owner.access >= minLevel)) {
      return okAsync(owner)
    }
    return errAsync(forbidden())
  })
}
