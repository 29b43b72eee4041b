import { ok, type Result } from 'neverthrow'
import type { Token } from './token.js'

/**
 * The outcome of a revocation: the token afterwards, and whether this call changed it.
 *
 * @example
 * ```ts
 * import type { Revocation } from './revoke-token.js'
 * declare const r: Revocation
 * r.changed // false when the token was already revoked
 * ```
 */
export interface Revocation {
  readonly token: Token
  readonly changed: boolean
}

/**
 * Revokes a token. Revoking a revoked token succeeds without change, as in GitLab (`revoke!` is a
 * no-op there), so DELETE is idempotent.
 *
 * @example
 * ```ts
 * import { revokeToken } from './revoke-token.js'
 * revokeToken(token).map(({ token, changed }) => token.revoked) // ok(true)
 * ```
 */
export function revokeToken(token: Token): Result<Revocation, never> {
  if (token.revoked) return ok({ token, changed: false })
  return ok({ token: { ...token, revoked: true }, changed: true })
}
