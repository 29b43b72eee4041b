import type { GranularBoundary, GranularScope } from './granular-scope.js'

/**
 * Where an issued token's permissions apply, in an embedder's words, and the {@link GranularScope}
 * each becomes (GitLab's model): `{ project: 42 }` → `selected_memberships` with `projectId` 42;
 * `{ group: 3 }` → `selected_memberships` with `groupId` 3 (the group and every project and group under
 * it); `'all'` → `all_memberships` (every project and group); `'personal'` → `personal_projects` (the
 * owner's personal projects); `'user'` → `user` (the owner's own resources); `'instance'` → `instance`.
 *
 * @example
 * ```ts
 * import type { PermissionBoundary } from 'patkit/authority'
 * const boundaries: PermissionBoundary[] = [{ project: 42 }, { group: 3 }, 'user', 'instance', 'all', 'personal']
 * ```
 */
export type PermissionBoundary =
  | { readonly project: number }
  | { readonly group: number }
  | 'user'
  | 'instance'
  | 'all'
  | 'personal'

/**
 * Permissions granted where a boundary reaches: one entry of `issueToken`'s `permissions`. `P` is the
 * authority's vocabulary (its `permissions` option).
 *
 * @example
 * ```ts
 * import type { PermissionGrant } from 'patkit/authority'
 * const grant: PermissionGrant<'read_invoice' | 'write_invoice'> = { permissions: ['read_invoice'], boundary: { project: 42 } }
 * ```
 */
export interface PermissionGrant<P extends string = string> {
  readonly permissions: readonly P[]
  readonly boundary: PermissionBoundary
}

/**
 * What a request touches, in an embedder's words: the token owner's own resources (`'user'`), the
 * instance (`'instance'`), or a project or group. A project or group may name the groups above it
 * (`groups`, nearest first), so that a token granted on a parent group reaches it; a project may say it
 * is in the owner's personal namespace (`personal`), which a `'personal'` grant reaches.
 *
 * @example
 * ```ts
 * import type { PermissionTarget } from 'patkit/authority'
 * const invoice: PermissionTarget = { project: 42, groups: [3] }
 * const settings: PermissionTarget = 'user'
 * ```
 */
export type PermissionTarget =
  | 'user'
  | 'instance'
  | {
      readonly project: number
      readonly groups?: readonly number[]
      readonly personal?: boolean
    }
  | { readonly group: number; readonly groups?: readonly number[] }

/** The granular scope one grant stores (see {@link PermissionBoundary} for the mapping). */
export function grantScope(grant: PermissionGrant): GranularScope {
  const permissions = Object.freeze([...new Set(grant.permissions)])
  const scope = (access: GranularScope['access'], projectId: number | null, groupId: number | null) =>
    Object.freeze({ access, permissions, projectId, groupId })
  const { boundary } = grant
  if (typeof boundary === 'object') {
    return 'project' in boundary
      ? scope('selected_memberships', boundary.project, null)
      : scope('selected_memberships', null, boundary.group)
  }
  switch (boundary) {
    case 'all':
      return scope('all_memberships', null, null)
    case 'personal':
      return scope('personal_projects', null, null)
    case 'user':
    case 'instance':
      return scope(boundary, null, null)
  }
}

/** The boundary GitLab's coverage rule reads for a target. */
export function targetBoundary(target: PermissionTarget): GranularBoundary {
  if (target === 'user' || target === 'instance') return { type: target }
  if ('project' in target) {
    return {
      type: 'project',
      id: target.project,
      ancestorGroupIds: target.groups ?? [],
      personal: target.personal ?? false,
    }
  }
  return { type: 'group', id: target.group, ancestorGroupIds: target.groups ?? [] }
}

/** The word GitLab's refusal names a boundary by (`type_label`). */
export function targetLabel(target: PermissionTarget): 'user' | 'instance' | 'project' | 'group' {
  if (target === 'user' || target === 'instance') return target
  return 'project' in target ? 'project' : 'group'
}
