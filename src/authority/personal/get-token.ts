import { err, errAsync, ok, ResultAsync } from 'neverthrow'
import { noToken } from '../../domain/error-constructors.js'
import type { ErrorOf } from '../../domain/errors.js'
import type { Token } from '../../domain/token.js'
import { settledResultAsync } from '../../store/settled.js'
import type { AuthorityDeps } from '../core/deps.js'
import type { Actor, TokenRef } from '../core/principal.js'
import { ANY_SCOPE, READ_SCOPES, requireScope } from '../core/scope-policy.js'
import { findAccessibleToken } from '../core/token-access.js'

/** Every way `get` can fail. */
export type GetError = ErrorOf<
  'insufficient_scope' | 'unauthorized' | 'not_found' | 'no_token' | 'store_failure'
>

/** GET by id (own token, or any for an administrator) or `self` (any scope). */
export function getToken(deps: AuthorityDeps, principal: Actor, ref: TokenRef): ResultAsync<Token, GetError> {
  if (ref === 'self') {
    if (principal.token === null) return errAsync(noToken())
    // `GET /self` is the most frequent request there is, and needs no store call: a plain check
    // answers it, settled (docs/benchmarks.md, target 3).
    const allowed = requireScope(principal, ANY_SCOPE)
    return settledResultAsync(allowed.isErr() ? err(allowed.error) : ok(principal.token))
  }
  const allowed = requireScope(principal, READ_SCOPES)
  if (allowed.isErr()) return errAsync(allowed.error)
  return new ResultAsync(findAccessibleToken(deps, principal, ref))
}
