import type { Token } from '../../domain/token.js'
import type { User } from '../../store/user.js'

/**
 * Who is calling: the user and the personal access token that authenticated the request.
 *
 * @example
 * ```ts
 * import type { Principal } from 'patkit'
 * declare const principal: Principal
 * principal.user.admin
 * ```
 */
export interface Principal {
  readonly user: User
  readonly token: Token
  /**
   * The administrator whose token this request presented, when it acts as another user through
   * `sudo` (see `Authority.sudo`); absent otherwise. Route scopes are not checked then, as in GitLab.
   */
  readonly sudoer?: User
  /**
   * True when the user is an administrator who does not act as one: Admin Mode is on and the token
   * lacks the `admin_mode` scope (`user.admin` is false then). GitLab's `GET /user` still shows them
   * as an administrator (it asks `admin?`, not `can_admin_all_resources?`).
   */
  readonly inactiveAdmin?: true
}

/**
 * A user the application authenticated some other way (a login session), as
 * `authority.asUser(userId)` returns it. It carries no token, so:
 *
 * - token scopes do not limit it: it may list, read, create, rotate and revoke its user's own tokens;
 * - it is never an administrator, even when its user is one: it sees and acts on its user's own tokens
 *   only (an admin's settings page lists the admin's tokens, not everyone's), as GitLab's web session
 *   needs Admin Mode for admin actions; administrative work goes through a token principal;
 * - `self` addresses the presenting token, which it has none of: `get`, `rotate` and `revoke` of
 *   `'self'` fail with `no_token` (address the token by its id).
 *
 * @example
 * ```ts
 * import type { SessionPrincipal } from 'patkit'
 *
 * const session = await authority.asUser(2)
 * if (session.isOk()) {
 *   const principal: SessionPrincipal = session.value
 *   await authority.list(principal) // the user's own tokens
 * }
 * ```
 */
export interface SessionPrincipal {
  readonly kind: 'session'
  readonly user: User
  readonly token: null
}

/**
 * Whoever an operation acts for: a token {@link Principal} (from `authenticate`) or a
 * {@link SessionPrincipal} (from `asUser`).
 *
 * @example
 * ```ts
 * import type { Actor } from 'patkit'
 *
 * function label(actor: Actor): string {
 *   return actor.token === null ? `session of ${actor.user.username}` : `token ${actor.token.id}`
 * }
 * ```
 */
export type Actor = Principal | SessionPrincipal

/**
 * Whether the actor has administrator rights: a token principal whose user is an administrator. A
 * session principal never has them (see {@link SessionPrincipal}).
 */
export function actsAsAdmin(actor: Actor): boolean {
  return actor.token !== null && actor.user.admin
}

/**
 * A token address: a numeric id, or `self` for the token that authenticated the request.
 *
 * @example
 * ```ts
 * import type { TokenRef } from 'patkit'
 * const ref: TokenRef = 'self'
 * ```
 */
export type TokenRef = number | 'self'
