import { err, ok, type Result } from 'neverthrow'
import { storeConflict, storeFailure } from '../domain/error-constructors.js'
import type { StoreFailure } from '../domain/errors.js'
import { isUserIdOf, type UserId, type UserIdType, userIdProblem } from '../domain/user-id.js'
import type { User } from '../store/user.js'

/**
 * The memory store's users: by id, and by lower-cased username for the case-insensitive lookup.
 */
interface UserTable {
  /** Adds or replaces the user with this id; fails when another user already has the username. */
  put(user: User): Result<User, StoreFailure>
  /**
   * By id (a number, or a string of digits) or by username in any case. With string ids a string is
   * always a username and a number names no one: ids are found with `findById`.
   */
  find(ref: number | string): User | null
  /** By id only, matched exactly: the number 7 and the string `'7'` are different ids. */
  findById(id: UserId): User | null
  /** Every user, in insertion order. */
  all(): IterableIterator<User>
  /** One above the highest integer id held (1 when there is none). */
  nextIntegerId(): number
  /** Bumped by every `put`: what was read of the users before is current while it is unchanged. */
  readonly version: number
}

const DIGITS = /^\d+$/

/** An empty {@link UserTable}. */
export function userTable(userIdType: UserIdType = 'integer'): UserTable {
  const byId = new Map<UserId, User>()
  const idByUsername = new Map<string, UserId>()
  let version = 0
  let highest = 0
  return {
    all: () => byId.values(),
    nextIntegerId: () => highest + 1,
    get version() {
      return version
    },
    put(user) {
      const problem = userIdProblem(userIdType, user.id)
      if (problem !== null) return err(storeFailure('putUser', new TypeError(problem)))
      const key = user.username.toLowerCase()
      const owner = idByUsername.get(key)
      if (owner !== undefined && owner !== user.id) {
        // Usernames are unique regardless of case, as a SQL store's unique index on lower(username) is.
        return err(
          storeConflict(
            'putUser',
            'username',
            new Error(`username "${user.username}" already belongs to user ${owner}`),
          ),
        )
      }
      const previous = byId.get(user.id)
      if (previous !== undefined) idByUsername.delete(previous.username.toLowerCase())
      // A copy, so the caller changing its object later cannot change the stored user.
      const stored: User = Object.freeze({
        id: user.id,
        username: user.username,
        admin: user.admin,
        blocked: user.blocked,
        ...(user.name === undefined ? {} : { name: user.name }),
        ...(user.bot === undefined ? {} : { bot: user.bot }),
        ...(user.botNamespace === undefined
          ? {}
          : { botNamespace: user.botNamespace === null ? null : Object.freeze({ ...user.botNamespace }) }),
        ...(user.serviceAccount === undefined ? {} : { serviceAccount: user.serviceAccount }),
        ...(user.provisionedByGroupId === undefined
          ? {}
          : { provisionedByGroupId: user.provisionedByGroupId }),
      })
      if (typeof stored.id === 'number' && stored.id > highest) highest = stored.id
      byId.set(stored.id, stored)
      idByUsername.set(key, stored.id)
      version++
      return ok(stored)
    },
    find(ref) {
      if (typeof ref === 'number') return userIdType === 'integer' ? (byId.get(ref) ?? null) : null
      if (userIdType === 'integer' && DIGITS.test(ref)) return byId.get(Number(ref)) ?? null
      const id = idByUsername.get(ref.toLowerCase())
      return id === undefined ? null : (byId.get(id) ?? null)
    },
    findById(id) {
      return isUserIdOf(userIdType, id) ? (byId.get(id) ?? null) : null
    },
  }
}
