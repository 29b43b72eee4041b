import { errAsync, okAsync, type ResultAsync } from 'neverthrow'
import type { AuthenticateError } from '../authority/authenticate.js'
import type { Authority } from '../authority/create-authority.js'
import type { Principal } from '../authority/principal.js'
import type { SudoError } from '../authority/sudo.js'
import { presentedSecret, sudoIdentifier } from './credentials.js'
import type { IncomingRequest } from './incoming.js'
import type { BodyParams } from './request-body.js'

/**
 * The caller of a GET route that GitLab also serves to anonymous callers: `null` when the request
 * presents no token (GitLab's `current_user` is nil then), else the token's principal. A token that
 * is presented but fails (unknown, expired, revoked) fails the request, as in GitLab, where only an
 * absent token makes a caller anonymous. A request naming a user with `sudo` acts as that user
 * ({@link actingPrincipal}); without a token it is 401, as GitLab's `sudo!` needs a caller.
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
): ResultAsync<Principal | null, AuthenticateError | SudoError> {
  const secret = presentedSecret(request, url, {})
  if (secret === null) {
    return sudoIdentifier(request, url, {}) === null ? okAsync(null) : errAsync({ type: 'unauthenticated' })
  }
  return authority
    .authenticate(secret, { ip: request.clientIp ?? null })
    .andThen((principal) => actingPrincipal(authority, principal, request, url, {}))
}

/**
 * The principal a request acts as: the authenticated one, or the user it names with `sudo`
 * (`Authority.sudo`, GitLab's `sudo!`).
 *
 * @example
 * ```ts
 * import { actingPrincipal } from './optional-principal.js'
 * declare const url: URL
 *
 * const acting = await actingPrincipal(authority, principal, request, url, {})
 * ```
 */
export function actingPrincipal(
  authority: Authority,
  principal: Principal,
  request: Pick<IncomingRequest, 'headers'>,
  url: URL,
  body: BodyParams,
): ResultAsync<Principal, SudoError> {
  const identifier = sudoIdentifier(request, url, body)
  return identifier === null ? okAsync(principal) : authority.sudo(principal, identifier)
}
