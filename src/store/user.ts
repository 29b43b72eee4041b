import type { ResultAsync } from 'neverthrow'

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
 * import type { UserDirectory } from 'patkit'
 * const directory: UserDirectory = {
 *   findUser: (ref) => okAsync(ref === 1 || ref === 'root' ? root : null),
 * }
 * ```
 */
export interface UserDirectory {
  /** Finds a user by numeric id or by username (case-insensitive); `null` when there is none. */
  findUser(ref: number | string): ResultAsync<User | null, StoreFailure>
}

/**
 * A storage failure: the driver threw, the connection dropped, a constraint was violated where none
 * should be. The operation had no effect.
 *
 * @example
 * ```ts
 * import type { StoreFailure } from 'patkit'
 * const e: StoreFailure = { type: 'store_failure', operation: 'insert', cause: new Error('ECONNRESET') }
 * ```
 */
export interface StoreFailure {
  readonly type: 'store_failure'
  readonly operation: string
  readonly cause: unknown
}
