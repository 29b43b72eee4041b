import { okAsync, type ResultAsync } from 'neverthrow'
import type { AuthenticateError } from '../authority/authenticate.js'
import type { Authority } from '../authority/create-authority.js'
import type { Principal } from '../authority/principal.js'
import { presentedSecret } from './credentials.js'
import type { IncomingRequest } from './incoming.js'

/**
 * The caller of a GET route that GitLab also serves to anonymous callers: `null` when the request
 * presents no token (GitLab's `current_user` is nil then), else the token's principal. A token that
 * is presented but fails (unknown, expired, revoked) fails the request, as in GitLab, where only an
 * absent token makes a caller anonymous.
 *
 * @example
 * ```ts
 * import { optionalPrincipal } from './optional-principal.js'
 * declare const url: URL
 *
 * const caller = await optionalPrincipal(authority, request, url)
 * const anonymous = caller.isOk() && caller.value === null
 * ```
 */
export function optionalPrincipal(
  authority: Authority,
  request: IncomingRequest,
  url: URL,
): ResultAsync<Principal | null, AuthenticateError> {
  const secret = presentedSecret(request, url, {})
  return secret === null ? okAsync(null) : authority.authenticate(secret)
}
