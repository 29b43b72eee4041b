import { errAsync, okAsync, type ResultAsync } from 'neverthrow'
import type { StoreFailure } from '../../domain/errors.js'
import { type AuthenticateError, authenticate } from './authenticate.js'
import type { AuthorityDeps } from './deps.js'
import type { Principal } from './principal.js'
import { requireScope } from './scope-policy.js'

/**
 * The stable codes of a failed {@link Verification}; the strings never change within a major version.
 *
 * @example
 * ```ts
 * import { VerifyCode } from 'patkit'
 *
 * const result = await authority.verify(secret)
 * if (result.isOk() && !result.value.valid && result.value.code === VerifyCode.Expired) console.log('renew it')
 * ```
 */
export const VerifyCode = {
  /** No secret was presented (absent or empty). */
  Missing: 'missing',
  /** A routable token's tail with a wrong checksum: a typo, a truncation or a forgery. No lookup made. */
  Malformed: 'malformed',
  /** No token has this secret. */
  Unknown: 'unknown',
  /** The token's user no longer exists or is blocked. */
  UserInactive: 'user_inactive',
  /** The token has expired. */
  Expired: 'expired',
  /** The token is revoked (or was rotated). */
  Revoked: 'revoked',
  /** The token is valid but has none of the scopes asked for. */
  InsufficientScope: 'insufficient_scope',
} as const

/**
 * One of the {@link VerifyCode} codes.
 *
 * @example
 * ```ts
 * import type { VerifyFailureCode } from 'patkit/authority'
 * const code: VerifyFailureCode = 'revoked'
 * ```
 */
export type VerifyFailureCode = (typeof VerifyCode)[keyof typeof VerifyCode]

/**
 * The outcome of `authority.verify`: the principal, or why not as a stable code (with the token's id
 * once the token is known: expired, revoked, insufficient_scope).
 *
 * @example
 * ```ts
 * import type { Verification } from 'patkit'
 *
 * function status(v: Verification): number {
 *   if (v.valid) return 200
 *   return v.code === 'insufficient_scope' ? 403 : 401
 * }
 * ```
 */
export type Verification =
  | { readonly valid: true; readonly principal: Principal }
  | { readonly valid: false; readonly code: VerifyFailureCode; readonly tokenId?: number }

/**
 * Options of `verify`: `scopes`, when given, are the scopes of which the token needs at least one
 * (as GitLab's routes list the scopes they accept).
 *
 * @example
 * ```ts
 * import type { VerifyOptions } from 'patkit/authority'
 * const options: VerifyOptions = { scopes: ['api', 'read_api'] }
 * ```
 */
export interface VerifyOptions {
  readonly scopes?: readonly string[]
}

/**
 * `authenticate`, then the scope check, answered as a value: `{ valid: true, principal }` or
 * `{ valid: false, code }`. Only a store failure is an error (it says nothing about the secret). It is
 * `authenticate` itself, so it refuses and records exactly as a request would (`lastUsedAt` included).
 */
export function verify(
  deps: AuthorityDeps,
  secret: string | null | undefined,
  options: VerifyOptions,
): ResultAsync<Verification, StoreFailure> {
  return authenticate(deps, secret, {})
    .map((principal): Verification => {
      if (options.scopes !== undefined && requireScope(principal, options.scopes).isErr()) {
        return failed(VerifyCode.InsufficientScope, principal.token.id)
      }
      return { valid: true, principal }
    })
    .orElse(refusal)
}

function refusal(e: AuthenticateError): ResultAsync<Verification, StoreFailure> {
  switch (e.type) {
    case 'store_failure':
      return errAsync(e)
    case 'token_expired':
      return okAsync(failed(VerifyCode.Expired, e.tokenId))
    case 'token_revoked':
      return okAsync(failed(VerifyCode.Revoked, e.tokenId))
    case 'unauthenticated':
      return okAsync(failed(e.reason ?? VerifyCode.Unknown))
    // A valid token of a blocked user (GitLab's 403 after the token's own checks).
    case 'forbidden':
      return okAsync(failed(VerifyCode.UserInactive))
  }
}

function failed(code: VerifyFailureCode, tokenId?: number): Verification {
  return tokenId === undefined ? { valid: false, code } : { valid: false, code, tokenId }
}
