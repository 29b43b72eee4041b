import type { Result } from 'neverthrow'
import type { ErrorOf } from '../../domain/errors.js'
import { CREATION_EXPIRY } from '../../domain/expiry.js'
import { PERSONAL_MINT } from '../../domain/mint-policy.js'
import { USER_CREATABLE_SCOPES } from '../../domain/scopes.js'
import type { UserId } from '../../domain/user-id.js'
import { administratorOver, namedUser, type UserLookup, userById, userFromDirectory } from './admission.js'
import type { AuthorityDeps } from './deps.js'
import type { Admission, TokenKind } from './mint.js'
import type { Actor } from './principal.js'
import { requireScope, WRITE_SCOPES } from './scope-policy.js'

// The kinds of personal token patkit mints, each a policy read by the one mint path (`mint.ts`). A new
// kind is one more entry: its scope values, expiry rule and `admit` (who may mint it for whom), not a
// new path; a resource's bot token and a service account's are in their own folders.

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
