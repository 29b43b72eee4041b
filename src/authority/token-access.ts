import { err, ok, type Result } from 'neverthrow'
import { notFound, unauthorized } from '../domain/error-constructors.js'
import type { ErrorOf } from '../domain/errors.js'
import type { Token } from '../domain/token.js'
import type { AuthorityDeps } from './deps.js'
import { type Actor, actsAsAdmin } from './principal.js'

/**
 * Loads a token the principal may read or rotate: their own, or any for an administrator. A missing
 * or foreign token looks the same to a non-administrator (401); an administrator learns it is
 * missing (404). This is GitLab's user-level check, so a user's own impersonation token passes.
 *
 * @example
 * ```ts
 * import { findAccessibleToken } from './token-access.js'
 * import type { AuthorityDeps } from './deps.js'
 * declare const deps: AuthorityDeps
 *
 * const found = await findAccessibleToken(deps, principal, 7) // ok(token), or unauthorized / not_found
 * ```
 */
export async function findAccessibleToken(
  deps: AuthorityDeps,
  principal: Actor,
  id: number,
): Promise<Result<Token, ErrorOf<'unauthorized' | 'not_found' | 'store_failure'>>> {
  const found = await deps.store.findById(id)
  if (found.isErr()) return err(found.error)
  const token = found.value
  const admin = actsAsAdmin(principal)
  if (token !== null && (admin || token.userId === principal.user.id)) return ok(token)
  return err(admin ? notFound('token') : unauthorized())
}
