import { err, ok, type Result, type ResultAsync } from 'neverthrow'
import { forbidden, notFound } from '../../domain/error-constructors.js'
import type { ErrorOf, StoreFailure } from '../../domain/errors.js'
import type { UserId } from '../../domain/user-id.js'
import type { User } from '../../store/user.js'
import type { AuthorityDeps } from './deps.js'
import { type Actor, actsAsAdmin } from './principal.js'
import { requireScope } from './scope-policy.js'

/** How a use case finds the user a request names. */
export type UserLookup = (deps: AuthorityDeps, id: UserId) => ResultAsync<User | null, StoreFailure>

/** By an id of the authority's `userIdType` (`userLookup`). */
export const userById: UserLookup = (deps, id) => deps.userById(id)

/** Through the user directory, as GitLab's `find_user_by_id` of the impersonation routes. */
export const userFromDirectory: UserLookup = (deps, id) => deps.users.findUser(id)

/** The user `id` names, or 404 (`not_found` naming the user). */
export async function namedUser(
  deps: AuthorityDeps,
  lookup: UserLookup,
  id: UserId,
): Promise<Result<User, ErrorOf<'not_found' | 'store_failure'>>> {
  const found = await lookup(deps, id)
  if (found.isErr()) return err(found.error)
  return found.value === null ? err(notFound('user')) : ok(found.value)
}

/**
 * GitLab's `authenticated_as_admin!` then `find_user`: the token's scope first, then 403 for anyone
 * but an administrator (before the user is looked up), then 404 for an unknown user.
 */
export async function administratorOver(
  deps: AuthorityDeps,
  caller: Actor,
  scopes: readonly string[],
  lookup: UserLookup,
  id: UserId,
): Promise<Result<User, ErrorOf<'insufficient_scope' | 'forbidden' | 'not_found' | 'store_failure'>>> {
  const scoped = requireScope(caller, scopes)
  if (scoped.isErr()) return err(scoped.error)
  if (!actsAsAdmin(caller)) return err(forbidden())
  return namedUser(deps, lookup, id)
}
