import type { Token } from '../../domain/token.js'

/**
 * A token together with its secret: the only answers that ever carry a secret (create, rotate, a
 * replayed rotation, `issueToken`).
 *
 * @example
 * ```ts
 * import type { IssuedToken } from 'patkit'
 * declare const issued: IssuedToken
 * issued.secret // 'glpat-...', shown once
 * ```
 */
export interface IssuedToken {
  readonly token: Token
  readonly secret: string
}
