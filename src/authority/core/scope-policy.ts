import { err, ok, type Result } from 'neverthrow'
import { insufficientScope } from '../../domain/error-constructors.js'
import type { ErrorOf } from '../../domain/errors.js'
import type { Scope } from '../../domain/scopes.js'
import type { Actor } from './principal.js'

/**
 * The scopes that let a token call an operation: GitLab allows `api` everywhere and `read_api` on
 * GET requests; the `self` routes widen that. These are the reads.
 */
export const READ_SCOPES: readonly Scope[] = ['api', 'read_api']
/** The writes: `api` only. */
export const WRITE_SCOPES: readonly Scope[] = ['api']
/** `POST /self/rotate`: `api`, or the narrow `self_rotate` scope. */
export const SELF_ROTATE_SCOPES: readonly Scope[] = ['api', 'self_rotate']
/** GitLab's users API (`GET /user`, `/users`, `/users/:id`) also lets `read_user` read. */
export const USER_READ_SCOPES: readonly Scope[] = ['api', 'read_api', 'read_user']
/**
 * `GET /metadata` and `/version` also let `read_user` and `ai_features` read (lib/api/metadata.rb).
 */
export const METADATA_SCOPES: readonly Scope[] = ['api', 'read_api', 'read_user', 'ai_features']

/** Any scope at all: the `GET/DELETE /self` routes accept every token. */
export const ANY_SCOPE = 'any'

/**
 * Checks that the principal's token has one of the allowed scopes (any scope when it acts through
 * `sudo`). A session principal has no token and is not limited by scopes (see `SessionPrincipal`).
 */
export function requireScope(
  principal: Actor,
  allowed: readonly string[] | typeof ANY_SCOPE,
): Result<void, ErrorOf<'insufficient_scope'>> {
  // GitLab validates only the `sudo` scope of a request that acts as another user.
  if (allowed === ANY_SCOPE || principal.token === null || principal.sudoer !== undefined)
    return ok(undefined)
  // A fine-grained token has no legacy scopes: its permissions are checked per route instead
  // (`authorizeGranular`, GitLab's AuthorizeGranularScopesService), never these.
  if (principal.token.granularScopes !== undefined) return ok(undefined)
  return principal.token.scopes.some((s) => allowed.includes(s))
    ? ok(undefined)
    : err(insufficientScope(allowed))
}
