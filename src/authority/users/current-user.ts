import { errAsync, okAsync, type ResultAsync } from 'neverthrow'
import type { ErrorOf } from '../../domain/errors.js'
import type { User } from '../../store/user.js'
import type { Actor } from '../core/principal.js'
import { requireScope, USER_READ_SCOPES } from '../core/scope-policy.js'

/** Every way `currentUser` can fail. */
export type CurrentUserError = ErrorOf<'insufficient_scope'>

/**
 * The caller, as GitLab's `GET /user` answers it: any token with `api`, `read_api` or `read_user`
 * (what python-gitlab's `auth()`, glab and secret scanners call to verify a token).
 */
export function currentUser(principal: Actor): ResultAsync<User, CurrentUserError> {
  const allowed = requireScope(principal, USER_READ_SCOPES)
  if (allowed.isErr()) return errAsync(allowed.error)
  // GitLab's `GET /user` asks `admin?`, which Admin Mode does not change.
  return okAsync(
    principal.token !== null && principal.inactiveAdmin === true
      ? { ...principal.user, admin: true }
      : principal.user,
  )
}
