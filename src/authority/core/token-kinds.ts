import { ok, type Result } from 'neverthrow'
import type { ErrorOf } from '../../domain/errors.js'
import { CREATION_EXPIRY } from '../../domain/expiry.js'
import { PERSONAL_MINT } from '../../domain/mint-policy.js'
import { ADMIN_ONLY_SCOPES, SCOPES, USER_CREATABLE_SCOPES } from '../../domain/scopes.js'
import type { UserId } from '../../domain/user-id.js'
import type { User } from '../../store/user.js'
import { administratorOver, namedUser, type UserLookup, userById, userFromDirectory } from './admission.js'
import type { AuthorityDeps } from './deps.js'
import type { Admission, TokenKind } from './mint.js'
import type { Actor } from './principal.js'
import { requireScope, WRITE_SCOPES } from './scope-policy.js'

// The kinds of token patkit mints, each a policy read by the one mint path (`mint.ts`). A new kind
// (a resource's bot token, a service account's) is one more entry here: its scope values, expiry rule
// and `admit` (who may mint it for whom), not a new path.

// An administrator mints for the user the request names (GitLab's `authenticated_as_admin!`).
function byAdministrator(lookup: UserLookup) {
  return async (
    deps: AuthorityDeps,
    caller: Actor,
    userId: UserId,
  ): Promise<
    Result<Admission, ErrorOf<'insufficient_scope' | 'forbidden' | 'not_found' | 'store_failure'>>
  > =>
    (await administratorOver(deps, caller, WRITE_SCOPES, lookup, userId)).map((owner) => ({
      owner,
      actorUserId: caller.user.id,
    }))
}

// The caller mints for themselves; a token principal needs the `api` scope, a session principal none.
async function byCallerForSelf(
  _deps: AuthorityDeps,
  caller: Actor,
  _target: null,
): Promise<Result<Admission, ErrorOf<'insufficient_scope'>>> {
  return requireScope(caller, WRITE_SCOPES).map(() => ({ owner: caller.user, actorUserId: caller.user.id }))
}

// No one asks (seeds, fixtures): the owner must exist, nothing else is checked.
async function unchecked(
  deps: AuthorityDeps,
  _caller: null,
  userId: UserId,
): Promise<Result<Admission, ErrorOf<'not_found' | 'store_failure'>>> {
  return (await namedUser(deps, userById, userId)).map((owner) => ({ owner, actorUserId: null }))
}

/** `POST /users/:user_id/personal_access_tokens`: an administrator creates a token for any user. */
export const PERSONAL_TOKEN = {
  name: 'personal',
  admit: byAdministrator(userById),
  ...PERSONAL_MINT,
  event: 'created',
} as const satisfies TokenKind<Actor, UserId, unknown>

/**
 * `POST /user/personal_access_tokens`: the caller's own token, with GitLab's self-service scopes
 * (`k8s_proxy`, `self_rotate`) only.
 */
export const SELF_SERVICE_TOKEN = {
  name: 'self_service',
  admit: byCallerForSelf,
  ...PERSONAL_MINT,
  scopes: { ...PERSONAL_MINT.scopes, values: USER_CREATABLE_SCOPES },
  event: 'created',
} as const satisfies TokenKind<Actor, null, unknown>

/**
 * `createOwn`, an application's own path (a settings page): the caller's own token with any scope of
 * the instance's vocabulary, and a past day refused instead of making a token born inactive.
 */
export const OWN_TOKEN = {
  name: 'own',
  admit: byCallerForSelf,
  ...PERSONAL_MINT,
  expiry: { ...CREATION_EXPIRY, past: 'refused' },
  event: 'created',
} as const satisfies TokenKind<Actor, null, unknown>

/**
 * `POST /users/:user_id/impersonation_tokens`: an administrator creates an impersonation token. The
 * route lists no scope values, so an unknown scope is the model's validation error.
 */
export const IMPERSONATION_TOKEN = {
  name: 'impersonation',
  admit: byAdministrator(userFromDirectory),
  ...PERSONAL_MINT,
  scopes: { ...PERSONAL_MINT.scopes, unknown: 'validation_failed' },
  impersonation: true,
  event: 'created',
} as const satisfies TokenKind<Actor, UserId, unknown>

/**
 * `issueToken`: a token put in place for seeds, fixtures and migrations, with no caller and no
 * expiry window; it may name its secret and stored state (`state: 'given'`), and a `null` expiry is
 * never, even when expiry is required.
 */
export const SEEDED_TOKEN = {
  name: 'seeded',
  admit: unchecked,
  scopes: { values: null, unknown: 'invalid_parameter', adminOnlyNeedsAdmin: false },
  expiry: { absent: 'max_lifetime', past: 'inactive', bounded: false, never: true },
  impersonation: false,
  state: 'given',
  event: 'created',
} as const satisfies TokenKind<null, UserId, unknown>

/**
 * GitLab's `resource_bot_scopes`: every scope but the administrators' (`sudo`, `admin_mode`,
 * `read_service_ping`) and `read_user`, in GitLab's order.
 */
export const RESOURCE_BOT_SCOPES: readonly string[] = Object.freeze(
  SCOPES.filter((s) => s !== 'read_user' && !(ADMIN_ONLY_SCOPES as readonly string[]).includes(s)),
)

/** Who minted a resource token for which bot: the caller was checked, and the bot made, before the mint. */
export interface BotTarget {
  readonly bot: User
  /** The caller's user id; `null` for `issueResourceToken`, which no one asks. */
  readonly actorUserId: UserId | null
}

/**
 * A project or group access token (`POST /{projects,groups}/:id/access_tokens`, `issueResourceToken`):
 * a token of the bot made for it, with `resource_bot_scopes` as the route's values. The caller's
 * checks come first (resource-token-create.ts); `admit` only names the bot.
 */
// The caller's checks (scope, the resource in view, `create_resource_access_tokens`, the role, a
// required expiry) stay in resource-token-create.ts: `admit` runs inside `mint`, after the bot it
// names was made (it is the owner) and `mint` checks the request after `admit`, so checks moved here
// would come after the request's own check and leave a bot behind for a refused caller, against
// GitLab's order; and `issueResourceToken` mints with no caller to check.

export const RESOURCE_TOKEN = {
  name: 'resource',
  admit: async (_deps: AuthorityDeps, _caller: null, target: BotTarget) =>
    ok<Admission, never>({ owner: target.bot, actorUserId: target.actorUserId }),
  ...PERSONAL_MINT,
  scopes: { values: RESOURCE_BOT_SCOPES, unknown: 'invalid_parameter', adminOnlyNeedsAdmin: false },
  event: 'created',
} as const satisfies TokenKind<null, BotTarget, never>
