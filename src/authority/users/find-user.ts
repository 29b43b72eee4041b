import { err, errAsync, type Result, ResultAsync } from 'neverthrow'
import { forbidden, notFound } from '../../domain/error-constructors.js'
import type { ErrorOf } from '../../domain/errors.js'
import type { UserId } from '../../domain/user-id.js'
import type { User } from '../../store/user.js'
import type { AuthorityDeps } from '../core/deps.js'
import type { Principal } from '../core/principal.js'
import { requireScope, USER_READ_SCOPES } from '../core/scope-policy.js'
import { redactedFor } from './redacted-name.js'

/** Every way `findUser` can fail. */
export type FindUserError = ErrorOf<'forbidden' | 'insufficient_scope' | 'not_found' | 'store_failure'>

/**
 * One user by id, as GitLab's `GET /users/:id` finds them: an anonymous caller is refused
 * (`403 Forbidden - Not authorized!`), any authenticated one may read any user, blocked ones
 * included (GitLab's UserPolicy enables `read_user` for every signed-in user); an unknown id is
 * `not_found`. A project bot's name is `****` to a caller who may not see its resource (`redactedFor`).
 * Which fields the caller sees is the HTTP layer's concern.
 */
export function findUser(
  deps: AuthorityDeps,
  principal: Principal | null,
  id: UserId,
): ResultAsync<User, FindUserError> {
  if (principal === null) return errAsync(forbidden('Not authorized!'))
  const allowed = requireScope(principal, USER_READ_SCOPES)
  if (allowed.isErr()) return errAsync(allowed.error)
  // Ids past the safe integer range, and 0, name no user: no store is asked about them.
  if (typeof id === 'number' && (!Number.isSafeInteger(id) || id < 1)) return errAsync(notFound('user'))
  return new ResultAsync(existingUser(deps, principal, id))
}

async function existingUser(
  deps: AuthorityDeps,
  principal: Principal,
  id: UserId,
): Promise<Result<User, FindUserError>> {
  const found = await deps.userById(id)
  if (found.isErr()) return err(found.error)
  return found.value === null ? err(notFound('user')) : redactedFor(deps, principal, found.value)
}
