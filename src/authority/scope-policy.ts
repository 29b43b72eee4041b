import { err, ok, type Result } from 'neverthrow'
import { insufficientScope } from '../domain/error-constructors.js'
import type { ErrorOf } from '../domain/errors.js'
import type { Scope } from '../domain/scopes.js'
import type { Actor } from './principal.js'

/**
 * The scopes that let a token call an operation: GitLab allows `api` everywhere and `read_api` on
 * GET requests; the `self` routes widen that. These are the reads.
 *
 * @example
 * ```ts
 * import { READ_SCOPES, requireScope } from './scope-policy.js'
 *
 * requireScope(principal, READ_SCOPES)
 * ```
 */
export const READ_SCOPES: readonly Scope[] = ['api', 'read_api']
/**
 * The writes: `api` only.
 *
 * @example
 * ```ts
 * import { requireScope, WRITE_SCOPES } from './scope-policy.js'
 *
 * requireScope(principal, WRITE_SCOPES)
 * ```
 */
export const WRITE_SCOPES: readonly Scope[] = ['api']
/**
 * `POST /self/rotate`: `api`, or the narrow `self_rotate` scope.
 *
 * @example
 * ```ts
 * import { requireScope, SELF_ROTATE_SCOPES } from './scope-policy.js'
 *
 * requireScope(principal, SELF_ROTATE_SCOPES)
 * ```
 */
export const SELF_ROTATE_SCOPES: readonly Scope[] = ['api', 'self_rotate']
/**
 * GitLab's users API (`GET /user`, `/users`, `/users/:id`) also lets `read_user` read.
 *
 * @example
 * ```ts
 * import { requireScope, USER_READ_SCOPES } from './scope-policy.js'
 *
 * requireScope(principal, USER_READ_SCOPES)
 * ```
 */
export const USER_READ_SCOPES: readonly Scope[] = ['api', 'read_api', 'read_user']
/**
 * `GET /metadata` and `/version` also let `read_user` and `ai_features` read (lib/api/metadata.rb).
 *
 * @example
 * ```ts
 * import { METADATA_SCOPES, requireScope } from './scope-policy.js'
 *
 * requireScope(principal, METADATA_SCOPES)
 * ```
 */
export const METADATA_SCOPES: readonly Scope[] = ['api', 'read_api', 'read_user', 'ai_features']

/**
 * Any scope at all: the `GET/DELETE /self` routes accept every token.
 *
 * @example
 * ```ts
 * import { ANY_SCOPE, requireScope } from './scope-policy.js'
 *
 * requireScope(principal, ANY_SCOPE) // ok for every token
 * ```
 */
export const ANY_SCOPE = 'any'

/**
 * Checks that the principal's token has one of the allowed scopes (any scope when it acts through
 * `sudo`). A session principal has no token and is not limited by scopes (see `SessionPrincipal`).
 *
 * @example
 * ```ts
 * import { requireScope, READ_SCOPES } from './scope-policy.js'
 * requireScope(principal, READ_SCOPES)
 * ```
 */
export function requireScope(
  principal: Actor,
  allowed: readonly string[] | typeof ANY_SCOPE,
): Result<void, ErrorOf<'insufficient_scope'>> {
  // GitLab validates only the `sudo` scope of a request that acts as another user.
  if (allowed === ANY_SCOPE || principal.token === null || principal.sudoer !== undefined)
    return ok(undefined)
  return principal.token.scopes.some((s) => allowed.includes(s))
    ? ok(undefined)
    : err(insufficientScope(allowed))
}
