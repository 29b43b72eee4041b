import { err, ok, type Result } from 'neverthrow'
import { badRequest, notFound } from '../../domain/error-constructors.js'
import type { ErrorOf, StoreFailure } from '../../domain/errors.js'
import type { Token } from '../../domain/token.js'
import type { TokenFilter } from '../../query/filter.js'
import type { User } from '../../store/user.js'
import type { CreateRequest } from '../core/create.js'
import type { AuthorityDeps } from '../core/deps.js'
import type { IssuedToken } from '../core/issued-token.js'
import { type ListRequest, listPage, type TokenPage } from '../core/list-tokens.js'
import { type MintError, mint } from '../core/mint.js'
import type { Actor } from '../core/principal.js'
import { revokeStored } from '../core/revoke-stored.js'
import { type RotateError, rotateFound } from '../core/rotate.js'
import { findTokenBy, onlyTokens } from '../core/token-access.js'
import type { ServiceAccountAccessError } from './service-account-access.js'
import { type AccountTarget, SERVICE_ACCOUNT_TOKEN } from './service-account-token-kind.js'

// The personal access tokens of a group's service account, once the route has checked the group and
// the account (`groupAccount`). The account's owner is the group, not the caller: these are the
// caller's checks, then the same store calls, mint path and rotation as a user's own tokens.

/** One page of the account's tokens, with the token list's filters (never its impersonation tokens). */
export async function listAccountTokens(
  deps: AuthorityDeps,
  account: User,
  request: Omit<ListRequest, 'userRef'>,
): Promise<Result<TokenPage, StoreFailure>> {
  const filter: TokenFilter = { ...request.filter, userId: account.id, excludeImpersonation: true }
  return listPage(deps, filter, request)
}

/**
 * A token for the group's account `userId`, through the one mint path: `SERVICE_ACCOUNT_TOKEN`'s
 * `admit` checks the caller, the group and the account.
 */
export function createAccountToken(
  deps: AuthorityDeps,
  caller: Actor,
  target: AccountTarget,
  request: CreateRequest,
): Promise<Result<IssuedToken, MintError | ServiceAccountAccessError>> {
  return mint(deps, SERVICE_ACCOUNT_TOKEN, caller, target, request)
}

// The account's token `id`; another user's token is no token of the account (`missing`).
function accountToken<E>(
  deps: AuthorityDeps,
  account: User,
  id: number,
  missing: E,
): Promise<Result<Token, E | StoreFailure>> {
  return findTokenBy(
    deps,
    id,
    onlyTokens(missing, (token) => token.userId === account.id),
  )
}

/**
 * Revokes the account's token (`404 Personal Access Token Not Found` for any other id). Revoking a
 * revoked token succeeds, as GitLab's `revoke_token` does.
 */
export async function revokeAccountToken(
  deps: AuthorityDeps,
  caller: Actor,
  account: User,
  id: number,
): Promise<Result<void, ErrorOf<'not_found'> | StoreFailure>> {
  const found = await accountToken(deps, account, id, notFound('personal_access_token'))
  if (found.isErr()) return err(found.error)
  const token = found.value
  const outcome = await revokeStored(deps, caller.user.id, token)
  if (outcome.isErr()) return err(outcome.error)
  if (outcome.value === 'missing') return err(notFound('personal_access_token'))
  return ok(undefined)
}

/**
 * Rotates the account's token (`404 Not Found` for any other id) with the PAT rotation: the same
 * family, a week by default, `Token already revoked` for a revoked one.
 */
export async function rotateAccountToken(
  deps: AuthorityDeps,
  caller: Actor,
  account: User,
  id: number,
  expiresAt: string | undefined,
): Promise<Result<IssuedToken, RotateError>> {
  const found = await accountToken(deps, account, id, notFound('token'))
  if (found.isErr()) return err(found.error)
  const rotated = await rotateFound(
    deps,
    caller,
    found.value,
    expiresAt === undefined ? {} : { expiresAt },
    deps.digest,
  )
  // The store reports a rotation lost to a concurrent one as missing or revoked: GitLab's 400.
  if (rotated.isErr() && rotated.error.type === 'not_found') return err(badRequest('Token already revoked'))
  return rotated
}
