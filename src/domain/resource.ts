/**
 * What a resource access token belongs to: a GitLab project or group (GitLab's `source_type`,
 * lower-cased as its `resource_type` field shows it).
 *
 * @example
 * ```ts
 * import type { ResourceType } from 'patkit/store'
 * const type: ResourceType = 'project'
 * ```
 */
export type ResourceType = 'project' | 'group'

/**
 * One project or group by its id; ids of groups and of projects are separate sequences, so the type is
 * part of the reference.
 *
 * @example
 * ```ts
 * import type { ResourceRef } from 'patkit/store'
 * const ref: ResourceRef = { type: 'group', id: 3 }
 * ```
 */
export interface ResourceRef {
  readonly type: ResourceType
  readonly id: number
}

/**
 * GitLab's member roles, by `access_level`: Guest 10, Planner 15, Reporter 20, Developer 30,
 * Maintainer 40, Owner 50 (`Gitlab::Access.options_with_owner`).
 *
 * @example
 * ```ts
 * import { ACCESS_LEVELS } from 'patkit/store'
 * ACCESS_LEVELS.includes(40) // true
 * ```
 */
export const ACCESS_LEVELS = [10, 15, 20, 30, 40, 50] as const

/**
 * One of {@link ACCESS_LEVELS}.
 *
 * @example
 * ```ts
 * import type { AccessLevel } from 'patkit/store'
 * const maintainer: AccessLevel = 40
 * ```
 */
export type AccessLevel = (typeof ACCESS_LEVELS)[number]

/**
 * Whether a value is one of GitLab's access levels.
 *
 * @example
 * ```ts
 * import { isAccessLevel } from 'patkit/store'
 * isAccessLevel(30) // true
 * isAccessLevel(0) // false: GitLab's NO_ACCESS is no member
 * ```
 */
export function isAccessLevel(value: unknown): value is AccessLevel {
  return (ACCESS_LEVELS as readonly unknown[]).includes(value)
}

/**
 * A user's direct membership of a project or group.
 *
 * @example
 * ```ts
 * import type { Member } from 'patkit/store'
 * const member: Member = { userId: 2, accessLevel: 40 }
 * ```
 */
export interface Member {
  /** Resources belong to GitLab's model: integer user ids only. */
  readonly userId: number
  readonly accessLevel: AccessLevel
}

/**
 * GitLab's visibility levels of a project or group.
 *
 * @example
 * ```ts
 * import type { Visibility } from 'patkit/store'
 * const visibility: Visibility = 'private'
 * ```
 */
export type Visibility = 'private' | 'internal' | 'public'

/**
 * A GitLab group: `fullPath` is its parents' paths and its own joined with `/` (how `:id` names it as a
 * URL-encoded path); `members` are its direct members.
 *
 * @example
 * ```ts
 * import type { Group } from 'patkit/store'
 * const group: Group = {
 *   id: 3, path: 'platform', fullPath: 'acme/platform', name: 'Platform', parentId: 1,
 *   visibility: 'private', members: [{ userId: 2, accessLevel: 50 }],
 * }
 * ```
 */
export interface Group {
  readonly id: number
  readonly path: string
  readonly fullPath: string
  readonly name: string
  readonly parentId: number | null
  readonly visibility: Visibility
  readonly members: readonly Member[]
  /**
   * GitLab's `extended_grat_expiry_webhooks_execute` namespace setting (no REST attribute): the group's
   * hooks also hear the 60- and 30-day expiry notices, not only the 7-day one. Absent means false.
   */
  readonly extendedExpiryWebhooks?: boolean
}

/**
 * A GitLab project: `fullPath` is its group's full path and its own path (its path alone without a
 * group); `members` are its direct members (a group's members reach it through `groupId`).
 *
 * @example
 * ```ts
 * import type { Project } from 'patkit/store'
 * const project: Project = {
 *   id: 7, path: 'api', fullPath: 'acme/api', name: 'API', groupId: 1,
 *   visibility: 'private', members: [{ userId: 2, accessLevel: 40 }],
 * }
 * ```
 */
export interface Project {
  readonly id: number
  readonly path: string
  readonly fullPath: string
  readonly name: string
  readonly groupId: number | null
  readonly visibility: Visibility
  readonly members: readonly Member[]
  /**
   * GitLab's `extended_prat_expiry_webhooks_execute` project setting (no REST attribute): the project's
   * hooks also hear the 60- and 30-day expiry notices, not only the 7-day one. Absent means false.
   */
  readonly extendedExpiryWebhooks?: boolean
}

/**
 * A user's direct access level in a project or group; `null` when they are not a member of it.
 *
 * @example
 * ```ts
 * import { directAccess } from 'patkit/store'
 * directAccess({ members: [{ userId: 2, accessLevel: 40 }] }, 2) // 40
 * ```
 */
export function directAccess(resource: Pick<Group | Project, 'members'>, userId: number): AccessLevel | null {
  let level: AccessLevel | null = null
  for (const member of resource.members) {
    if (member.userId === userId && (level === null || member.accessLevel > level)) level = member.accessLevel
  }
  return level
}

/**
 * A user's access in a project or group, as GitLab's `max_member_access`: the highest of their direct
 * membership there and of every group above it (`chain`, the resource first, then its group or parent,
 * up to the top); `null` when they are a member of none.
 *
 * @example
 * ```ts
 * import { effectiveAccess } from 'patkit/store'
 * effectiveAccess([{ members: [] }, { members: [{ userId: 2, accessLevel: 50 }] }], 2) // 50
 * ```
 */
export function effectiveAccess(
  chain: readonly Pick<Group | Project, 'members'>[],
  userId: number,
): AccessLevel | null {
  let level: AccessLevel | null = null
  for (const resource of chain) {
    const here = directAccess(resource, userId)
    if (here !== null && (level === null || here > level)) level = here
  }
  return level
}

/**
 * A group's or project's full path from its parent's full path (`null` at the top) and its own path.
 *
 * @example
 * ```ts
 * import { fullPathOf } from 'patkit/store'
 * fullPathOf('acme', 'api') // 'acme/api'
 * ```
 */
export function fullPathOf(parentFullPath: string | null, path: string): string {
  return parentFullPath === null ? path : `${parentFullPath}/${path}`
}
