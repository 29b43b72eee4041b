import { err, errAsync, ok, type Result, ResultAsync } from 'neverthrow'
import { forbidden, notFound } from '../../domain/error-constructors.js'
import type { ErrorOf, StoreFailure } from '../../domain/errors.js'
import { DEFAULT_TOKEN_PREFIX } from '../../domain/secret.js'
import { isExpired, type Token } from '../../domain/token.js'
import type { UserId } from '../../domain/user-id.js'
import type { User } from '../../store/user.js'
import { findPresented } from '../core/authenticate.js'
import type { AuthorityDeps } from '../core/deps.js'
import { type TokenInfo, toTokenInfo } from '../core/events.js'
import type { Principal } from '../core/principal.js'
import { revokeStored } from '../core/revoke-stored.js'
import { requireScope, WRITE_SCOPES } from '../core/scope-policy.js'

/**
 * Which kind of token a secret is, as GitLab's admin token API tells them apart: a personal access
 * token, an impersonation token, a project or group access token (a bot's), or a service account's.
 *
 * @example
 * ```ts
 * import type { TokenKind } from 'patkit/authority'
 * const kind: TokenKind = 'project_access_token'
 * ```
 */
export type TokenKind =
  | 'personal_access_token'
  | 'impersonation_token'
  | 'project_access_token'
  | 'group_access_token'
  | 'service_account_token'

/**
 * A token found by its secret: the token (never its secret or digest), its kind, its owner (`null`
 * when the owner is gone) and its state at the authority's instant.
 *
 * @example
 * ```ts
 * import type { IdentifiedToken } from 'patkit/authority'
 * declare const found: IdentifiedToken
 * found.owner?.username // who to tell
 * found.state // 'active', 'expired' or 'revoked'
 * ```
 */
export interface IdentifiedToken {
  readonly token: TokenInfo
  readonly kind: TokenKind
  readonly owner: User | null
  readonly state: 'active' | 'expired' | 'revoked'
}

/**
 * Why a secret was not found or not revoked: `unsupported_token_type`, the secret has no token
 * prefix GitLab knows (GitLab's 422 `Token type not supported.`); `not_found` (entity `token`), the
 * prefix is known and no token has this secret (404); `unsupported_revocation`, GitLab's admin API
 * does not revoke this kind (a service account's token: GitLab raises `Unsupported personal access
 * token type`, which its API answers 500).
 *
 * @example
 * ```ts
 * import type { AdminTokenError } from 'patkit/authority'
 * declare const e: AdminTokenError
 * if (e.type === 'unsupported_revocation') console.log(e.kind) // 'service_account_token'
 * ```
 */
export type AdminTokenError =
  | { readonly type: 'unsupported_token_type' }
  | { readonly type: 'unsupported_revocation'; readonly kind: TokenKind }
  | ErrorOf<'not_found'>
  | StoreFailure

/**
 * What the admin token API's route calls may also answer: the token lacks `api`, the caller is no
 * administrator, or the request's `token` parameter is missing or not a string.
 *
 * @example
 * ```ts
 * import type { AdminTokenRequestError } from 'patkit/authority'
 * const e: AdminTokenRequestError = { type: 'forbidden' }
 * ```
 */
export type AdminTokenRequestError =
  | AdminTokenError
  | ErrorOf<'forbidden' | 'insufficient_scope' | 'invalid_parameter'>

/**
 * The request's `token` parameter as the route read it: the secret, or why there is none.
 *
 * @example
 * ```ts
 * import { ok } from 'neverthrow'
 * import type { TokenParameter } from 'patkit/authority'
 * const given: TokenParameter = ok('glpat-leaked')
 * ```
 */
export type TokenParameter = Result<string, ErrorOf<'invalid_parameter'>>

/**
 * Finding and revoking a token by its secret, for a leaked-token runbook (a secret scanner hands you
 * a string: whose is it, revoke it) and for GitLab's admin token API (`POST` and `DELETE
 * /api/v4/admin/token`, GitLab 17.5 and 17.7). `identify` and `revoke` are the embedder's trusted
 * calls (no caller is checked, like `issueToken`); `tokenInfo` and `revokeToken` are GitLab's routes,
 * for an administrator only.
 *
 * @example
 * ```ts
 * declare const leakedSecret: string
 * const found = await authority.admin.identify(leakedSecret)
 * if (found.isOk() && found.value.state === 'active') {
 *   await authority.admin.revoke(leakedSecret, { actorUserId: 1 })
 * }
 * ```
 */
export interface AdminTokenMethods {
  /** The token a secret is, whatever its state; see {@link AdminTokenError} for the refusals. */
  identify(secret: string): ResultAsync<IdentifiedToken, AdminTokenError>
  /**
   * Revokes the token a secret is, as GitLab's admin API does for its kind (only that token, not its
   * family; a project or group access token as its resource's revocation does), and answers it as it
   * was found. An already revoked token is answered again, as GitLab does. `actorUserId` is the
   * `revoked` event's actor (default: the token's owner).
   */
  revoke(
    secret: string,
    options?: { readonly actorUserId?: UserId },
  ): ResultAsync<IdentifiedToken, AdminTokenError>
  /**
   * GitLab's `POST /admin/token`: `identify` for an administrator (Admin Mode applies) with `api`,
   * in GitLab's order: the scope, the administrator, then the `token` parameter.
   */
  tokenInfo(
    principal: Principal,
    secret: TokenParameter,
  ): ResultAsync<IdentifiedToken, AdminTokenRequestError>
  /** GitLab's `DELETE /admin/token`: `revoke`, checked as `tokenInfo`; the administrator is the actor. */
  revokeToken(
    principal: Principal,
    secret: TokenParameter,
  ): ResultAsync<IdentifiedToken, AdminTokenRequestError>
}

/**
 * The prefixes of GitLab's other token kinds, which patkit does not hold, in the order GitLab's
 * `Authn::AgnosticTokenIdentifier::TOKEN_TYPES` tries them (gitlabhq lib/authn/agnostic_token_identifier.rb,
 * 800235cc): deploy and feed tokens before personal access tokens, the rest after. A secret with one
 * of them is a known kind that nothing matches here (404).
 */
const KINDS_BEFORE_PERSONAL = ['gldt-', 'glft-']
const KINDS_AFTER_PERSONAL = [
  'gloas-',
  'glagent-',
  'glrt-',
  'glptt-',
  'glcbt-',
  'glffct-',
  '_gitlab_session=',
  'glimt-',
]

type Recognized = 'personal' | 'other' | 'unsupported'

// GitLab's `Authn::Tokens::PersonalAccessToken.prefix?`: the instance's prefix or the default `glpat-`.
function recognize(deps: AuthorityDeps, secret: string): Recognized {
  if (KINDS_BEFORE_PERSONAL.some((p) => secret.startsWith(p))) return 'other'
  if (secret.startsWith(deps.prefix) || secret.startsWith(DEFAULT_TOKEN_PREFIX)) return 'personal'
  if (KINDS_AFTER_PERSONAL.some((p) => secret.startsWith(p))) return 'other'
  return 'unsupported'
}

function kindOf(token: Token, owner: User | null): TokenKind {
  if (owner?.bot === true)
    return owner.botNamespace?.type === 'group' ? 'group_access_token' : 'project_access_token'
  if (owner?.serviceAccount === true) return 'service_account_token'
  return token.impersonation ? 'impersonation_token' : 'personal_access_token'
}

interface Found {
  readonly token: Token
  readonly identified: IdentifiedToken
}

async function find(deps: AuthorityDeps, secret: string): Promise<Result<Found, AdminTokenError>> {
  const recognized = recognize(deps, secret)
  if (recognized === 'unsupported') return err({ type: 'unsupported_token_type' })
  if (recognized === 'other') return err(notFound('token'))
  // Revoked and expired tokens are found too: GitLab's `find_by_token` reads by digest alone.
  const found = await findPresented(deps, deps.digest(secret), true)
  if (found.isErr()) return err(found.error)
  if (found.value === null) return err(notFound('token'))
  const { token, user } = found.value
  const now = deps.clock.now()
  const state = token.revoked ? 'revoked' : isExpired(token, now) ? 'expired' : 'active'
  return ok({
    token,
    identified: { token: toTokenInfo(token), kind: kindOf(token, user), owner: user, state },
  })
}

async function revokeFound(
  deps: AuthorityDeps,
  secret: string,
  actorUserId: UserId | undefined,
): Promise<Result<IdentifiedToken, AdminTokenError>> {
  const found = await find(deps, secret)
  if (found.isErr()) return err(found.error)
  const { token, identified } = found.value
  // lib/authn/tokens/personal_access_token.rb (37f03adf): a project bot's token goes to
  // ResourceAccessTokens::RevokeService, a human's to PersonalAccessTokens::RevokeService, any other
  // user type raises UnsupportedTokenError.
  if (identified.kind === 'service_account_token') {
    return err({ type: 'unsupported_revocation', kind: identified.kind })
  }
  const revoked = await revokeStored(deps, actorUserId ?? token.userId, token)
  if (revoked.isErr()) return err(revoked.error)
  return ok(identified)
}

// GitLab checks the token's scopes as it authenticates, then `authenticated_as_admin!` (a `before`
// block), then Grape's `requires :token` (lib/api/admin/token.rb).
function checked(principal: Principal, secret: TokenParameter): Result<string, AdminTokenRequestError> {
  const scoped = requireScope(principal, WRITE_SCOPES)
  if (scoped.isErr()) return err(scoped.error)
  if (!principal.user.admin) return err(forbidden())
  return secret
}

/** The authority's `admin` group over its dependencies. */
export function adminTokenMethods(deps: AuthorityDeps): AdminTokenMethods {
  const identify = (secret: string) =>
    new ResultAsync(find(deps, secret).then((r) => r.map((f) => f.identified)))
  const revoke = (secret: string, options: { readonly actorUserId?: UserId } = {}) =>
    new ResultAsync(revokeFound(deps, secret, options.actorUserId))
  return {
    identify,
    revoke,
    tokenInfo: (principal, secret) => {
      const allowed = checked(principal, secret)
      return allowed.isErr() ? errAsync(allowed.error) : identify(allowed.value)
    },
    revokeToken: (principal, secret) => {
      const allowed = checked(principal, secret)
      return allowed.isErr()
        ? errAsync(allowed.error)
        : revoke(allowed.value, { actorUserId: principal.user.id })
    },
  }
}
