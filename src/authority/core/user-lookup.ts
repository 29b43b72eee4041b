import { okAsync, type ResultAsync } from 'neverthrow'
import type { StoreFailure } from '../../domain/errors.js'
import { isUserIdOf, type UserId, type UserIdType } from '../../domain/user-id.js'
import type { User, UserDirectory } from '../../store/user.js'

/**
 * How the authority finds a user by id, resolved once at start-up from `userIdType` and the
 * directory: integer ids go to `findUser` (as every GitLab-style directory answers them), string
 * ids to `findUserById` (a string given to `findUser` is a username). An id of the other kind names
 * no one, without asking the directory. `null` when `userIdType` is `'string'` and the directory has
 * no `findUserById`: a configuration mistake the caller reports.
 */
export function userLookup(
  users: UserDirectory,
  userIdType: UserIdType,
): ((id: UserId) => ResultAsync<User | null, StoreFailure>) | null {
  if (userIdType === 'integer') {
    return (id) => (isUserIdOf('integer', id) ? users.findUser(id) : okAsync(null))
  }
  const { findUserById } = users
  if (findUserById === undefined) return null
  return (id) => (isUserIdOf('string', id) ? findUserById.call(users, id) : okAsync(null))
}
