import { okAsync, type ResultAsync, safeTry } from 'neverthrow'
import type { ErrorOf } from '../domain/errors.js'
import type { Token } from '../domain/token.js'
import type { AuthorityDeps } from './deps.js'
import type { Principal, TokenRef } from './principal.js'
import { ANY_SCOPE, READ_SCOPES, requireScope } from './scope-policy.js'
import { findAccessibleToken } from './token-access.js'

/** GET by id (own token, or any for an administrator) or `self` (any scope). */
export function getToken(
  deps: AuthorityDeps,
  principal: Principal,
  ref: TokenRef,
): ResultAsync<Token, ErrorOf<'insufficient_scope' | 'unauthorized' | 'not_found' | 'store_failure'>> {
  return safeTry(async function* () {
    if (ref === 'self') {
      yield* requireScope(principal, ANY_SCOPE)
      return okAsync(principal.token)
    }
    yield* requireScope(principal, READ_SCOPES)
    return findAccessibleToken(deps, principal, ref)
  })
}
