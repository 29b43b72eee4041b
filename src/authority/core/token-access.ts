import { err, ok, type Result } from 'neverthrow'
import { badRequest, notFound, unauthorized } from '../../domain/error-constructors.js'
import type { ErrorOf } from '../../domain/errors.js'
import type { Token } from '../../domain/token.js'
import type { AuthorityDeps } from './deps.js'
import { type Actor, actsAsAdmin } from './principal.js'

// GitLab's two rules for acting on a token by id, in one place. They answer whoever is not allowed as
// GitLab answers a non-administrator, so a session principal (never an administrator) gets exactly
// what a non-administrator's token gets (docs/embedding.md, "A token that is not its user's"):
// - read and rotate (UserPolicy, manage_user_personal_access_token): a missing token and another
//   user's look the same, `unauthorized` (401); an administrator learns it is missing (404);
// - revoke (PersonalAccessTokenPolicy, revoke_token): a missing token is `not_found` for everyone,
//   another user's token or one's own impersonation token a bare `bad_request` (400).

/**
 * Loads a token the principal may read or rotate: their own, or any for an administrator. A missing
 * or foreign token looks the same to a non-administrator (401); an administrator learns it is
 * missing (404). This is GitLab's user-level check, so a user's own impersonation token passes.
 */
export async function findAccessibleToken(
  deps: AuthorityDeps,
  principal: Actor,
  id: number,
): Promise<Result<Token, ErrorOf<'unauthorized' | 'not_found' | 'store_failure'>>> {
  const found = await deps.store.findById(id)
  if (found.isErr()) return err(found.error)
  return accessibleToken(principal, found.value)
}

/** {@link findAccessibleToken}'s rule on a token already read from the store (`null`: none has the id). */
export function accessibleToken(
  principal: Actor,
  token: Token | null,
): Result<Token, ErrorOf<'unauthorized' | 'not_found'>> {
  const admin = actsAsAdmin(principal)
  if (token !== null && (admin || token.userId === principal.user.id)) return ok(token)
  return err(admin ? notFound('token') : unauthorized())
}

/**
 * GitLab's revoke permission: an administrator, or the owner of a token that is not an impersonation
 * token.
 */
export function mayRevoke(principal: Actor, token: Token): boolean {
  return actsAsAdmin(principal) || (token.userId === principal.user.id && !token.impersonation)
}

/**
 * Loads a token the principal may revoke ({@link mayRevoke}): a missing one is `not_found` for
 * everyone, any other refusal a bare `bad_request` (GitLab's 400, not 401/403).
 */
export async function findRevocableToken(
  deps: AuthorityDeps,
  principal: Actor,
  id: number,
): Promise<Result<Token, ErrorOf<'bad_request' | 'not_found' | 'store_failure'>>> {
  const found = await deps.store.findById(id)
  if (found.isErr()) return err(found.error)
  if (found.value === null) return err(notFound('token'))
  return mayRevoke(principal, found.value) ? ok(found.value) : err(badRequest())
}
