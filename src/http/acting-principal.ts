import { errAsync, okAsync, type ResultAsync } from 'neverthrow'
import type { AuthenticateError } from '../authority/authenticate.js'
import type { Authority } from '../authority/create-authority.js'
import type { Principal } from '../authority/principal.js'
import type { SudoError } from '../authority/sudo.js'
import { unauthenticated } from '../domain/error-constructors.js'
import type { Credentials } from './credentials.js'

/** Every way a request fails to become a principal. */
export type PrincipalError = AuthenticateError | SudoError

/** What the authentication of a request needs besides its credentials. */
export interface PrincipalContext {
  /** A rotation request: a revoked token presented to it triggers reuse detection. */
  readonly rotateRequest: boolean
  /** A request that changes data: decided on the token as stored now, not on a cached row. */
  readonly write: boolean
  /** The client's address, recorded in the token's `last_used_ips`. */
  readonly ip: string | null
}

/**
 * GitLab's `current_user`: the one way a request to the API becomes the principal its route acts as,
 * so that no route sees the token's own user when the request names another with `sudo`. The secret
 * is authenticated (expiry, revocation, reuse detection, a blocked owner and Admin Mode are decided
 * there), then `sudo` (GitLab's `sudo!`) makes the named user the principal. `null` when the request
 * presents no token: each route decides whether it serves anonymous callers (GitLab's
 * `authenticate!` refuses them); `sudo` without a token is 401 on every route.
 */
export function actingPrincipal(
  authority: Authority,
  credentials: Credentials,
  context: PrincipalContext,
): ResultAsync<Principal | null, PrincipalError> {
  const { secret, sudo } = credentials
  if (secret === null) return sudo === null ? okAsync(null) : errAsync(unauthenticated('missing'))
  const authenticated = authority.authenticate(secret, context)
  // Without `sudo`, as on almost every request, the authentication is the answer: no extra step.
  return sudo === null ? authenticated : authenticated.andThen((principal) => authority.sudo(principal, sudo))
}
