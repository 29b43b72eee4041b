import type { ResultAsync } from 'neverthrow'
import type { StoreFailure } from '../domain/errors.js'
import type { ResourceRef } from '../domain/resource.js'
import type { UserId } from '../domain/user-id.js'

/**
 * A user as the authority needs to know one: identity, role and whether they are blocked.
 *
 * @example
 * ```ts
 * import type { User } from 'patkit'
 * const root: User = { id: 1, username: 'root', admin: true, blocked: false }
 * ```
 */
export interface User {
  /** A number (GitLab's ids), or a string with `userIdType: 'string'`. */
  readonly id: UserId
  readonly username: string
  readonly admin: boolean
  readonly blocked: boolean
  /** The display name GitLab's messages use (`"<name> cannot delete <bot name>"`); absent: the username. */
  readonly name?: string
  /** A bot user: a project or group access token's owner (GitLab's `project_bot` user type). */
  readonly bot?: boolean
  /** The project or group a bot belongs to (GitLab's `bot_namespace`); absent or null for others. */
  readonly botNamespace?: ResourceRef | null
  /** A service account (GitLab's `service_account` user type). */
  readonly serviceAccount?: boolean
  /** The top-level group that provisioned this service account; null for an instance-wide one. */
  readonly provisionedByGroupId?: number | null
}

/**
 * The name GitLab shows for a user: `name` when set, else the username.
 *
 * @example
 * ```ts
 * import { displayName } from 'patkit/store'
 * displayName({ username: 'alice' }) // 'alice'
 * ```
 */
export function displayName(user: Pick<User, 'name' | 'username'>): string {
  return user.name ?? user.username
}

/**
 * Where users come from. Every store is one; a host application can pass its own to the authority
 * instead (its user table, an identity provider).
 *
 * @example
 * ```ts
 * import { okAsync } from 'neverthrow'
 * import type { User } from 'patkit'
 * import type { UserDirectory } from 'patkit/store'
 *
 * const root: User = { id: 1, username: 'root', admin: true, blocked: false }
 * const directory: UserDirectory = {
 *   findUser: (ref) => okAsync(ref === 1 || ref === 'root' ? root : null),
 * }
 * ```
 */
export interface UserDirectory {
  /**
   * Finds a user by numeric id or by username (case-insensitive); `null` when there is none. A string
   * of digits is an integer id; with string user ids (`userIdType: 'string'`) a string is always a
   * username and a number names no one.
   */
  findUser(ref: number | string): ResultAsync<User | null, StoreFailure>
  /**
   * Optional: finds a user by id only, matched exactly (the number 7 and the string `'7'` are
   * different ids); `null` when there is none. Required by an authority with `userIdType: 'string'`,
   * which looks every user id up here (a string id could otherwise be read as a username); without
   * it, integer ids go to `findUser` as they always did.
   */
  findUserById?(id: UserId): ResultAsync<User | null, StoreFailure>
}
