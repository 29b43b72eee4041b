import type { ResultAsync } from 'neverthrow'
import type { StoreFailure } from '../domain/errors.js'
import type { Group, Member, Project, ResourceRef } from '../domain/resource.js'
import type { AuditStore, HookStore } from './hook-store.js'
import type { User } from './user.js'

/**
 * A user to create with the next free integer id (bots and service accounts, which the API creates).
 *
 * @example
 * ```ts
 * import type { UserDraft } from 'patkit/store'
 * const bot: UserDraft = {
 *   username: 'project_7_bot_0f3a', name: 'deploy', admin: false, blocked: false,
 *   bot: true, botNamespace: { type: 'project', id: 7 },
 * }
 * ```
 */
export type UserDraft = Omit<User, 'id'>

/**
 * Which users `listUsers` returns: each given field must match.
 *
 * @example
 * ```ts
 * import type { UserFilter } from 'patkit/store'
 * const groupAccounts: UserFilter = { serviceAccount: true, provisionedByGroupId: 3 }
 * ```
 */
export interface UserFilter {
  readonly serviceAccount?: boolean
  readonly bot?: boolean
  /** A number: provisioned by that group; `null`: provisioned by no group (instance-wide). */
  readonly provisionedByGroupId?: number | null
}

/**
 * The optional part of a store that holds GitLab's projects and groups, their members and the users the
 * API creates (bots of resource access tokens, service accounts). A store with it (`store.resources`)
 * also honours `filter.resource` in `list`: only tokens of the resource's bots (users with `bot: true`
 * that are members of it). Without it, the project, group and service account routes answer as for an
 * unknown resource. The store conformance suite (`patkit/testing`) holds an implementation to this
 * contract.
 *
 * @example
 * ```ts
 * import { memoryStore } from 'patkit/memory'
 *
 * const resources = memoryStore().resources
 * await resources?.putGroup({
 *   id: 1, path: 'acme', fullPath: 'acme', name: 'Acme', parentId: null, visibility: 'private', members: [],
 * })
 * ```
 */
export interface ResourceStore {
  /** By id, or by full path in any case (`acme/platform`); `null` when there is none. */
  findGroup(ref: number | string): ResultAsync<Group | null, StoreFailure>
  /** By id, or by full path in any case (`acme/api`); `null` when there is none. */
  findProject(ref: number | string): ResultAsync<Project | null, StoreFailure>
  /**
   * Adds or replaces the group with this id, its members included. Fails when another group has the
   * full path (in any case).
   */
  putGroup(group: Group): ResultAsync<Group, StoreFailure>
  /**
   * Adds or replaces the project with this id, its members included. Fails when another project has
   * the full path (in any case).
   */
  putProject(project: Project): ResultAsync<Project, StoreFailure>
  /** Every group, in id order. */
  listGroups(): ResultAsync<readonly Group[], StoreFailure>
  /** Every project, in id order. */
  listProjects(): ResultAsync<readonly Project[], StoreFailure>
  /**
   * Adds a member to a project or group, or changes an existing member's level, without touching the
   * other members (two concurrent calls both persist). Fails when the resource does not exist.
   */
  setMember(resource: ResourceRef, member: Member): ResultAsync<void, StoreFailure>
  /**
   * Removes one member from a project or group without touching the other members (a concurrent
   * `setMember` of another user persists). Removing a user who is not a member, or from a resource that
   * does not exist, changes nothing and succeeds.
   */
  removeMember(resource: ResourceRef, userId: number): ResultAsync<void, StoreFailure>
  /**
   * Creates a user with an integer id above every existing user's (concurrent calls never share one).
   * Fails when the username is taken (in any case).
   */
  createUser(draft: UserDraft): ResultAsync<User, StoreFailure>
  /** The users that match the filter, in id order. */
  listUsers(filter: UserFilter): ResultAsync<readonly User[], StoreFailure>
  /** The projects' and groups' webhooks, their delivery logs and the expiry notices given. */
  readonly hooks: HookStore
  /** The audit events. */
  readonly audit: AuditStore
}
