import { ResultAsync } from 'neverthrow'
import type { CreateError, CreateRequest } from '../core/create.js'
import type { AuthorityDeps } from '../core/deps.js'
import type { IssuedToken } from '../core/issued-token.js'
import { mint } from '../core/mint.js'
import type { Actor } from '../core/principal.js'
import { OWN_TOKEN } from '../core/token-kinds.js'

/**
 * Creates a token for the caller's own account with every check of an administrator's creation, and
 * none of GitLab's self-service limit: any scope of the configured vocabulary (`scopes`), admin-only
 * scopes only for an administrator, and the expiry window (after today; with `requireExpiry`, at
 * most `maxLifetimeDays` ahead, and today + `maxLifetimeDays` when absent). This is an application's
 * own path (a settings page, usually for a session principal from `asUser`); the HTTP binding keeps
 * GitLab's `POST /user/personal_access_tokens` rule (`create(principal, 'self', …)`: only `k8s_proxy`
 * and `self_rotate`). A token principal needs the `api` scope; a session principal needs none.
 * The kind `OWN_TOKEN` through the one mint path.
 */
export function createOwn(
  deps: AuthorityDeps,
  principal: Actor,
  request: CreateRequest,
): ResultAsync<IssuedToken, CreateError> {
  return new ResultAsync(mint(deps, OWN_TOKEN, principal, null, request))
}
