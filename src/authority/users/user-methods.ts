import type { ResultAsync } from 'neverthrow'
import type { ErrorOf, StoreFailure } from '../../domain/errors.js'
import type { UserId } from '../../domain/user-id.js'
import type { UsernameError } from '../../domain/username.js'
import type { PageRequest } from '../../query/filter.js'
import type { User } from '../../store/user.js'
import type { Actor, Principal } from '../core/principal.js'
import type { CurrentUserError } from './current-user.js'
import type { FindUserError } from './find-user.js'
import type { FindUsersError, UsersQuery } from './find-users.js'
import type { InstanceMetadata } from './instance-metadata.js'
import type { TokenAssociations } from './token-associations.js'

/**
 * The users the authority knows (GitLab's `/user`, `/users`) and the instance's `GET /metadata`; `put`
 * adds or replaces a user.
 *
 * @example
 * ```ts
 * await authority.users.put({ id: 2, username: 'alice', admin: false, blocked: false })
 * const alice = await authority.users.find(principal, 2)
 * ```
 */
export interface UserMethods {
  /**
   * Adds or replaces a user in the store. A username GitLab would refuse (its format, 2 to 255
   * characters, a reserved name such as `admin`) is `bad_request` with GitLab's message, before the
   * store; one another user holds (in any case) is the store's failure.
   */
  put(user: User): ResultAsync<User, StoreFailure | UsernameError>
  /** The caller (GitLab's `GET /user`). */
  current(principal: Actor): ResultAsync<User, CurrentUserError>
  /** One user by id (`GET /users/:id`); `null` for an anonymous caller. */
  find(principal: Principal | null, id: UserId): ResultAsync<User, FindUserError>
  /** The users a `GET /users` query finds; `null` for an anonymous caller. */
  findMany(principal: Principal | null, query: UsersQuery): ResultAsync<readonly User[], FindUsersError>
  /** The emulated release's `GET /metadata`. */
  metadata(principal: Principal): ResultAsync<InstanceMetadata, ErrorOf<'insufficient_scope'>>
  /**
   * `GET /personal_access_tokens/self/associations`: the groups and projects the token's user reaches,
   * newest first, each list paginated.
   *
   * @example
   * ```ts
   * const reached = await authority.users.associations(principal, { page: { page: 1, perPage: 20 } })
   * ```
   */
  associations(
    principal: Principal,
    request: { readonly minAccessLevel?: number; readonly page: PageRequest },
  ): ResultAsync<TokenAssociations, StoreFailure>
}
