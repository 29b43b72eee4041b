/**
 * The kinds of access a fine-grained token's scope grants (GitLab's `Authz::GranularScope::Access::LEVELS`,
 * app/models/authz/granular_scope.rb), in GitLab's enum order.
 *
 * @example
 * ```ts
 * import { GRANULAR_ACCESS } from 'patkit/authority'
 * GRANULAR_ACCESS.includes('user') // true
 * ```
 */
export const GRANULAR_ACCESS = Object.freeze([
  'personal_projects',
  'all_memberships',
  'selected_memberships',
  'user',
  'instance',
] as const)

/**
 * One of {@link GRANULAR_ACCESS}.
 *
 * @example
 * ```ts
 * import type { GranularAccess } from 'patkit/authority'
 * const access: GranularAccess = 'selected_memberships'
 * ```
 */
export type GranularAccess = (typeof GRANULAR_ACCESS)[number]

/**
 * One scope of a fine-grained (granular) token, as GitLab stores a `personal_access_token_granular_scopes`
 * row: the permissions it grants (assignable permission names) where its access reaches. `projectId` or
 * `groupId` is set only with `selected_memberships` (each id is a scope of its own); both are `null`
 * otherwise.
 *
 * @example
 * ```ts
 * import type { GranularScope } from 'patkit/authority'
 * const scope: GranularScope = {
 *   access: 'selected_memberships', permissions: ['read_project'], projectId: 42, groupId: null,
 * }
 * ```
 */
export interface GranularScope {
  readonly access: GranularAccess
  readonly permissions: readonly string[]
  readonly projectId: number | null
  readonly groupId: number | null
}

/**
 * What a request touches, as GitLab's `boundary_type` names it: the user's own resources, the instance,
 * or a project or group. A project or group boundary carries what coverage needs: the ids of the groups
 * above it (`ancestorGroupIds`, nearest first) and whether the project sits in the token owner's personal
 * namespace.
 *
 * @example
 * ```ts
 * import type { GranularBoundary } from 'patkit/authority'
 * const boundary: GranularBoundary = { type: 'project', id: 7, ancestorGroupIds: [3, 1], personal: false }
 * ```
 */
export type GranularBoundary =
  | { readonly type: 'user' }
  | { readonly type: 'instance' }
  | {
      readonly type: 'project'
      readonly id: number
      readonly ancestorGroupIds: readonly number[]
      readonly personal: boolean
    }
  | { readonly type: 'group'; readonly id: number; readonly ancestorGroupIds: readonly number[] }

/**
 * Whether a scope reaches a boundary, by GitLab's rule (Authz::GranularScope `for_standalone` and
 * `for_namespaces`): a user or instance boundary needs a scope of that access; a project or group is
 * reached by `all_memberships`, by `selected_memberships` on it or on a group above it, and a project in
 * the owner's personal namespace by `personal_projects`.
 *
 * @example
 * ```ts
 * import { scopeReaches } from 'patkit/authority'
 * scopeReaches({ access: 'user', permissions: ['read_user'], projectId: null, groupId: null }, { type: 'user' }) // true
 * ```
 */
export function scopeReaches(scope: GranularScope, boundary: GranularBoundary): boolean {
  switch (boundary.type) {
    case 'user':
    case 'instance':
      return scope.access === boundary.type
    case 'project':
      if (scope.access === 'all_memberships') return true
      if (scope.access === 'personal_projects') return boundary.personal
      if (scope.access !== 'selected_memberships') return false
      return (
        scope.projectId === boundary.id ||
        (scope.groupId !== null && boundary.ancestorGroupIds.includes(scope.groupId))
      )
    case 'group':
      if (scope.access === 'all_memberships') return true
      if (scope.access !== 'selected_memberships' || scope.groupId === null) return false
      return scope.groupId === boundary.id || boundary.ancestorGroupIds.includes(scope.groupId)
  }
}

/**
 * The permissions of `required` that no scope reaching `boundary` grants, in `required`'s order; empty
 * when the scopes grant them all.
 *
 * @example
 * ```ts
 * import { missingPermissions } from 'patkit/authority'
 * const scopes = [{ access: 'user', permissions: ['read_user'], projectId: null, groupId: null }] as const
 * missingPermissions(scopes, { type: 'user' }, ['read_user', 'read_personal_access_token']) // ['read_personal_access_token']
 * ```
 */
export function missingPermissions(
  scopes: readonly GranularScope[],
  boundary: GranularBoundary,
  required: readonly string[],
): readonly string[] {
  const granted = new Set<string>()
  for (const scope of scopes) {
    if (scopeReaches(scope, boundary)) for (const permission of scope.permissions) granted.add(permission)
  }
  return required.filter((permission) => !granted.has(permission))
}
