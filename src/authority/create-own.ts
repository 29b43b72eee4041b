import { err, type Result, ResultAsync } from 'neverthrow'
import { type CreateError, type CreateRequest, mintFor } from './create.js'
import type { AuthorityDeps } from './deps.js'
import type { IssuedToken } from './issued-token.js'
import type { Actor } from './principal.js'
import { requireScope, WRITE_SCOPES } from './scope-policy.js'

/**
 * Creates a token for the caller's own account with every check of an administrator's creation, and
 * none of GitLab's self-service limit: any scope of the configured vocabulary (`scopes`), admin-only
 * scopes only for an administrator, and the expiry window (after today; with `requireExpiry`, at
 * most `maxLifetimeDays` ahead, and today + `maxLifetimeDays` when absent). This is an application's
 * own path (a settings page, usually for a session principal from `asUser`); the HTTP binding keeps
 * GitLab's `POST /user/personal_access_tokens` rule (`create(principal, 'self', …)`: only `k8s_proxy`
 * and `self_rotate`). A token principal needs the `api` scope; a session principal needs none.
 *
 * @example
 * ```ts
 * import { createOwn } from './create-own.js'
 * import type { AuthorityDeps } from './deps.js'
 * declare const deps: AuthorityDeps
 *
 * const created = await createOwn(deps, principal, { name: 'laptop', scopes: ['read_api'], expiresAt: '2030-01-01' })
 * ```
 */
export function createOwn(
  deps: AuthorityDeps,
  principal: Actor,
  request: CreateRequest,
): ResultAsync<IssuedToken, CreateError> {
  return new ResultAsync(createOwnFor(deps, principal, request))
}

async function createOwnFor(
  deps: AuthorityDeps,
  principal: Actor,
  request: CreateRequest,
): Promise<Result<IssuedToken, CreateError>> {
  const scoped = requireScope(principal, WRITE_SCOPES)
  if (scoped.isErr()) return err(scoped.error)
  return mintFor(deps, principal, principal.user, request, true)
}
