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
