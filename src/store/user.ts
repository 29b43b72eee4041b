import type { ResultAsync } from 'neverthrow'
import type { StoreFailure } from '../domain/errors.js'

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
  readonly id: number
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
  /** Finds a user by numeric id or by username (case-insensitive); `null` when there is none. */
  findUser(ref: number | string): ResultAsync<User | null, StoreFailure>
}
