import type { Token } from '../domain/token.js'
import type { User } from '../store/user.js'

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
 * A token address: a numeric id, or `self` for the token that authenticated the request.
 *
 * @example
 * ```ts
 * import type { TokenRef } from 'patkit'
 * const ref: TokenRef = 'self'
 * ```
 */
export type TokenRef = number | 'self'
