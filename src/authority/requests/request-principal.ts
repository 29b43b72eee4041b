import { errAsync, okAsync, type ResultAsync } from 'neverthrow'
import { unauthenticated } from '../../domain/error-constructors.js'
import { type AuthenticateError, authenticate } from '../core/authenticate.js'
import type { AuthorityDeps } from '../core/deps.js'
import type { Principal } from '../core/principal.js'
import { type SudoError, sudo } from './sudo.js'

/**
 * What a request to the API presents: its token (`null` or absent for none), the user it names with
 * `sudo` (a parameter or the `Sudo` header; `null` or absent for none), and the client's address,
 * recorded in the token's `last_used_ips`.
 *
 * @example
 * ```ts
 * import type { RequestCredentials } from 'patkit/authority'
 *
 * const credentials: RequestCredentials = { secret: request.headers.get('private-token'), sudo: null, ip: '203.0.113.7' }
 * const caller = await authority.requests.requestPrincipal(credentials)
 * ```
 */
export interface RequestCredentials {
  readonly secret: string | null | undefined
  readonly sudo?: string | null
  readonly ip?: string | null
}

/**
 * Every way a request fails to become a principal: its authentication, then its `sudo`.
 */
export type PrincipalError = AuthenticateError | SudoError

/**
 * GitLab's `current_user`: the one way a request becomes the principal it acts as, so that nothing
 * acts as the token's own user when the request names another with `sudo`. The secret is
 * authenticated (`authenticate`: expiry, revocation, a blocked owner and Admin Mode are decided
 * there; with `write`, on the token as the store holds it now), then `sudo` (GitLab's `sudo!`) makes
 * the named user the principal. `null` when the request presents no token: the caller decides whether
 * it serves anonymous callers (GitLab's `authenticate!` refuses them); `sudo` without a token is
 * `unauthenticated`. A rotation is one call of its own, `rotateRequest`, which applies the same steps.
 */
export function requestPrincipal(
  deps: AuthorityDeps,
  credentials: RequestCredentials,
  write: boolean,
): ResultAsync<Principal | null, PrincipalError> {
  const { secret } = credentials
  const named = credentials.sudo ?? null
  if (secret === null || secret === undefined || secret === '') {
    return named === null ? okAsync(null) : errAsync(unauthenticated('missing'))
  }
  const authenticated = authenticate(deps, secret, { write, ip: credentials.ip ?? null })
  // Without `sudo`, as on almost every request, the authentication is the answer: no extra step.
  return named === null ? authenticated : authenticated.andThen((principal) => sudo(deps, principal, named))
}

/** `sudo` after an authentication that `rotateRequest` decided itself (it shares its lookup with the replay). */
export function sudoAfter(
  deps: AuthorityDeps,
  principal: Principal,
  named: string | null | undefined,
): ResultAsync<Principal, SudoError> {
  return named === null || named === undefined ? okAsync(principal) : sudo(deps, principal, named)
}
