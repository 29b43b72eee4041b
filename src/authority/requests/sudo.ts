import { err, errAsync, ok, type Result, ResultAsync } from 'neverthrow'
import { forbidden, insufficientScope } from '../../domain/error-constructors.js'
import type { ErrorOf } from '../../domain/errors.js'
import { actingAs } from '../core/authenticate.js'
import type { AuthorityDeps } from '../core/deps.js'
import { findUserByRef } from '../core/list-tokens.js'
import type { Principal } from '../core/principal.js'

/** Every way `sudo` can fail. */
export type SudoError = ErrorOf<'forbidden' | 'insufficient_scope' | 'not_found' | 'store_failure'>

/** GitLab's reason for a non-administrator's `sudo` (lib/api/helpers.rb `sudo!`). */
export const SUDO_NOT_ADMIN = 'Must be admin to use sudo'

/**
 * The principal a request acts as when it names a user with `sudo` (a query or body parameter, or
 * the `Sudo` header), as GitLab's `sudo!`: the caller must be an administrator (else `403 Forbidden -
 * Must be admin to use sudo`; with admin mode on, through an `admin_mode` token), their token must
 * have the `sudo` scope (else `insufficient_scope` naming `sudo`), and the user must exist: digits
 * name an id, anything else a username, case-insensitive (else `not_found` with the identifier as
 * given, GitLab's `404 User with ID or username '<identifier>' Not Found`). The result acts as that
 * user with the caller's token; when the user is another one, `sudoer` is the caller and the
 * route's own scope check is skipped, as GitLab validates only the `sudo` scope then.
 */
export function sudo(
  deps: AuthorityDeps,
  principal: Principal,
  identifier: string,
): ResultAsync<Principal, SudoError> {
  if (!principal.user.admin) return errAsync(forbidden(SUDO_NOT_ADMIN))
  if (!principal.token.scopes.includes('sudo')) return errAsync(insufficientScope(['sudo']))
  return new ResultAsync(sudoAs(deps, principal, identifier))
}

async function sudoAs(
  deps: AuthorityDeps,
  principal: Principal,
  identifier: string,
): Promise<Result<Principal, SudoError>> {
  // GitLab's UserFinder: an identifier of digits is an id, anything else a username. With string
  // user ids, the list's user_id rule: a string id, or a username when no user has that id.
  const ref = /^\d+$/.test(identifier) ? Number(identifier) : identifier
  const found =
    deps.userIdType === 'string'
      ? await findUserByRef(deps, identifier)
      : typeof ref === 'number' && !Number.isSafeInteger(ref)
        ? ok(null)
        : await deps.users.findUser(ref)
  if (found.isErr()) return err(found.error)
  if (found.value === null) return err({ type: 'not_found', entity: 'user', reference: identifier })
  const acting = actingAs(found.value, principal.token, deps.adminMode)
  if (acting.user.id === principal.user.id) return ok(acting)
  return ok({ ...acting, sudoer: principal.user })
}
