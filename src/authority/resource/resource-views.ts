import { errAsync, type ResultAsync } from 'neverthrow'
import type { ErrorOf, StoreFailure } from '../../domain/errors.js'
import {
  type AccessLevel,
  directAccess,
  effectiveAccess,
  type Group,
  type Project,
} from '../../domain/resource.js'
import type { AuthorityDeps } from '../core/deps.js'
import type { Actor } from '../core/principal.js'
import { groupInView, projectInView, viewerOf } from '../core/resource-access.js'
import { READ_SCOPES, requireScope } from '../core/scope-policy.js'

/**
 * A project or group as one caller may see it (GitLab's `GET /projects/:id`, `GET /groups/:id`): the
 * resource, the groups above it (its group or parent first, up to the top-level group), and the
 * caller's access: `direct` their membership of the resource itself, `inherited` the highest of the
 * groups above it (GitLab's `highest_group_member`), each `null` for none (and for anonymous callers).
 *
 * @example
 * ```ts
 * import type { ResourceView } from 'patkit/authority'
 * import type { Project } from 'patkit/store'
 * declare const view: ResourceView<Project>
 * view.ancestors.map((g) => g.name).join(' / ') // 'Acme'
 * ```
 */
export interface ResourceView<T extends Group | Project> {
  readonly resource: T
  readonly ancestors: readonly Group[]
  readonly direct: AccessLevel | null
  readonly inherited: AccessLevel | null
}

/**
 * Every way reading a project or group fails: `not_found` also for one the caller may not see.
 *
 * @example
 * ```ts
 * import type { ResourceViewError } from 'patkit/authority'
 * const e: ResourceViewError = { type: 'not_found', entity: 'project' }
 * ```
 */
export type ResourceViewError = ErrorOf<'not_found' | 'insufficient_scope'> | StoreFailure

function viewOf<T extends Group | Project>(
  resource: T,
  chain: readonly (Group | Project)[],
  userId: unknown,
): ResourceView<T> {
  const ancestors = chain.slice(1) as Group[]
  if (typeof userId !== 'number') return { resource, ancestors, direct: null, inherited: null }
  return {
    resource,
    ancestors,
    direct: directAccess(resource, userId),
    inherited: effectiveAccess(ancestors, userId),
  }
}

/**
 * GitLab's `find_project!` (`ref`: an id or a full path) for `GET /projects/:id`: a token needs `api`
 * or `read_api`; `principal` `null` is an anonymous caller, who sees public projects only.
 */
export function viewProject(
  deps: AuthorityDeps,
  principal: Actor | null,
  ref: string,
): ResultAsync<ResourceView<Project>, ResourceViewError> {
  if (principal !== null) {
    const scoped = requireScope(principal, READ_SCOPES)
    if (scoped.isErr()) return errAsync(scoped.error)
  }
  const viewer = principal === null ? null : viewerOf(principal)
  return projectInView(deps, viewer, ref).map((v) => viewOf(v.resource, v.chain, viewer?.id))
}

/** GitLab's `find_group!` for `GET /groups/:id`, as {@link viewProject}. */
export function viewGroup(
  deps: AuthorityDeps,
  principal: Actor | null,
  ref: string,
): ResultAsync<ResourceView<Group>, ResourceViewError> {
  if (principal !== null) {
    const scoped = requireScope(principal, READ_SCOPES)
    if (scoped.isErr()) return errAsync(scoped.error)
  }
  const viewer = principal === null ? null : viewerOf(principal)
  return groupInView(deps, viewer, ref).map((v) => viewOf(v.resource, v.chain, viewer?.id))
}
