import { errAsync, okAsync, type ResultAsync } from 'neverthrow'
import type { ErrorOf } from '../domain/errors.js'
import type { Token } from '../domain/token.js'
import type { AuthorityDeps } from './deps.js'
import type { Principal } from './principal.js'

/**
 * Loads a token the principal may read or rotate: their own, or any for an administrator. A missing
 * or foreign token looks the same to a non-administrator (401); an administrator learns it is
 * missing (404). This is GitLab's user-level check, so a user's own impersonation token passes.
 */
export function findAccessibleToken(
  deps: AuthorityDeps,
  principal: Principal,
  id: number,
): ResultAsync<Token, ErrorOf<'unauthorized' | 'not_found' | 'store_failure'>> {
  return deps.store.findById(id).andThen((token) => {
    if (token !== null && (principal.user.admin || token.userId === principal.user.id)) return okAsync(token)
    return principal.user.admin
      ? errAsync({ type: 'not_found' as const, entity: 'token' as const })
      : errAsync({ type: 'unauthorized' as const })
  })
}
