import { err, ok, type Result, ResultAsync } from 'neverthrow'
import { forbidden, notFound } from '../../domain/error-constructors.js'
import type { ErrorOf } from '../../domain/errors.js'
import type { UserId } from '../../domain/user-id.js'
import type { AuthorityDeps } from './deps.js'
import type { SessionPrincipal } from './principal.js'

/**
 * Every way `asUser` can fail: no such user (`not_found`, entity `user`), a blocked user
 * (`forbidden`, reason {@link USER_BLOCKED}), or the store.
 */
export type AsUserError = ErrorOf<'not_found' | 'forbidden' | 'store_failure'>

/**
 * The `forbidden` reason for a blocked user, GitLab's text (`403 Forbidden - Your account has been
 * blocked.`): `authenticate` answers it for a valid token of a blocked user, `asUser` for a session.
 *
 * @example
 * ```ts
 * import { USER_BLOCKED } from 'patkit/authority'
 *
 * const session = await authority.asUser(2)
 * if (session.isErr() && session.error.type === 'forbidden' && session.error.reason === USER_BLOCKED) {
 *   // sign the user out
 * }
 * ```
 */
export const USER_BLOCKED = 'Your account has been blocked.'

/**
 * A {@link SessionPrincipal} for a user the application authenticated itself (a login session):
 * the user is read from the user directory, and a blocked user is refused as `authenticate` refuses
 * their tokens.
 */
export function asUser(deps: AuthorityDeps, userId: UserId): ResultAsync<SessionPrincipal, AsUserError> {
  return new ResultAsync(sessionFor(deps, userId))
}

async function sessionFor(
  deps: AuthorityDeps,
  userId: UserId,
): Promise<Result<SessionPrincipal, AsUserError>> {
  // A username is not an id: a session names its user by id, of the authority's userIdType (an id of
  // the other kind, or an unsafe integer, finds no one).
  const found = await deps.userById(userId)
  if (found.isErr()) return err(found.error)
  const user = found.value
  if (user === null) return err(notFound('user'))
  if (user.blocked) return err(forbidden(USER_BLOCKED))
  return ok(Object.freeze({ kind: 'session', user, token: null }))
}
