import type { ResultAsync } from 'neverthrow'
import type { StoreFailure } from '../domain/errors.js'
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
