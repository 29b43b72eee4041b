import { err, errAsync, ok, okAsync, type Result, ResultAsync } from 'neverthrow'
import { forbidden, invalidParameter, unauthenticated } from '../../domain/error-constructors.js'
import type { ErrorOf } from '../../domain/errors.js'
import type { User } from '../../store/user.js'
import type { AuthorityDeps } from '../core/deps.js'
import type { Principal } from '../core/principal.js'
import { requireScope, USER_READ_SCOPES } from '../core/scope-policy.js'
import { redactedFor } from './redacted-name.js'

/**
 * The Boolean filters of GitLab's `GET /users` that patkit evaluates. GitLab applies each only when
 * it is true (`active=false` filters nothing), so a query lists the ones given as true.
 */
export const USERS_FILTER_FLAGS = [
  'active',
  'blocked',
  'exclude_active',
  'external',
  'exclude_external',
  'admins',
  'humans',
  'exclude_humans',
  'exclude_internal',
  'without_project_bots',
  'without_projects',
] as const

/**
 * One of {@link USERS_FILTER_FLAGS}.
 *
 * @example
 * ```ts
 * import type { UsersFilterFlag } from 'patkit/authority'
 * const flag: UsersFilterFlag = 'active'
 * ```
 */
export type UsersFilterFlag = (typeof USERS_FILTER_FLAGS)[number]

/**
 * A `GET /users` request, parsed. `username` is as given (`''` when the key is present but blank);
 * `externUid` and `provider` come together (the HTTP edge refuses one without the other).
 *
 * @example
 * ```ts
 * import type { UsersQuery } from 'patkit/authority'
 * const query: UsersQuery = { username: 'alice', flags: ['active'] }
 * ```
 */
export interface UsersQuery {
  readonly username?: string
  readonly externUid?: string
  readonly provider?: string
  readonly flags?: readonly UsersFilterFlag[]
  /** GitLab's `two_factor` (`enabled` or `disabled`); administrators only, as in GitLab. */
  readonly twoFactor?: string
}

/** Every way `findUsers` can fail. */
export type FindUsersError = ErrorOf<
  'unauthenticated' | 'forbidden' | 'insufficient_scope' | 'invalid_parameter' | 'store_failure'
>

const present = (value: string | undefined): value is string => value !== undefined && value.trim() !== ''

/**
 * GitLab's `human` user type: not a bot of a project or group access token (`project_bot`) and not a
 * service account (both are among GitLab's `BOT_USER_TYPES`).
 */
export function isHuman(user: User): boolean {
  return user.bot !== true && user.serviceAccount !== true
}

/**
 * What patkit's users are, for every filter: humans unless they are bots or service accounts
 * (`humans`, `exclude_humans`; `without_project_bots` drops the bots only), not internal, not
 * external, without projects and without two-factor authentication; active or blocked. An
 * administrator's `admins` and `two_factor` apply; for anyone else GitLab drops them (UsersFinder,
 * `params.except!`).
 */
function matches(user: User, query: UsersQuery, viewerIsAdmin: boolean): boolean {
  for (const flag of query.flags ?? []) {
    switch (flag) {
      case 'active':
        if (user.blocked) return false
        break
      case 'blocked':
      case 'exclude_active':
        if (!user.blocked) return false
        break
      case 'external':
        return false
      case 'humans':
        if (!isHuman(user)) return false
        break
      case 'exclude_humans':
        if (isHuman(user)) return false
        break
      case 'without_project_bots':
        if (user.bot === true) return false
        break
      case 'admins':
        if (viewerIsAdmin && !user.admin) return false
        break
      case 'exclude_external':
      case 'exclude_internal':
      case 'without_projects':
        break
    }
  }
  return !(viewerIsAdmin && query.twoFactor === 'enabled')
}

/**
 * The users a `GET /users` request finds, in GitLab's order of checks (lib/api/users.rb,
 * app/finders/users_finder.rb):
 * - `extern_uid` and `provider` both given: an administrator's lookup (anonymous 401, others 403
 *   `403 Forbidden`); patkit's users have no external identities, so it finds no one;
 * - an anonymous caller must name a `username` (else 403 `Not authorized to access /api/v4/users`);
 * - the username matches case-insensitively; a blocked user is hidden from everyone but administrators
 *   (GitLab's `without_forbidden_states`); the Boolean filters then apply.
 *
 * patkit's user directory looks users up one at a time and lists none, so an authenticated request
 * without `username` is refused as `username is missing` (400) where GitLab would list every user.
 */
export function findUsers(
  deps: AuthorityDeps,
  principal: Principal | null,
  query: UsersQuery,
): ResultAsync<readonly User[], FindUsersError> {
  if (principal !== null) {
    const allowed = requireScope(principal, USER_READ_SCOPES)
    if (allowed.isErr()) return errAsync(allowed.error)
  }
  const viewerIsAdmin = principal?.user.admin === true
  if (present(query.externUid) && present(query.provider)) {
    if (principal === null) return errAsync(unauthenticated())
    if (!viewerIsAdmin) return errAsync(forbidden())
  }
  if (principal === null && !present(query.username)) {
    return errAsync(forbidden('Not authorized to access /api/v4/users'))
  }
  // GitLab matches the identity even when a value is blank: no user of patkit has one.
  if (query.externUid !== undefined && query.provider !== undefined) return okAsync([])
  if (query.username === undefined) {
    return errAsync(invalidParameter('username', 'missing'))
  }
  // A blank username matches no one, as GitLab's exact `by_username('')`.
  if (query.username === '') return okAsync([])
  return new ResultAsync(usersNamed(deps, query.username, query, viewerIsAdmin)).andThen((users) =>
    ResultAsync.combine(users.map((u) => new ResultAsync(redactedFor(deps, principal, u)))),
  )
}

async function usersNamed(
  deps: AuthorityDeps,
  username: string,
  query: UsersQuery,
  viewerIsAdmin: boolean,
): Promise<Result<readonly User[], FindUsersError>> {
  const found = await deps.users.findUser(username)
  if (found.isErr()) return err(found.error)
  const user = found.value
  // A directory reads a string of digits as an id; GET /users matches usernames only.
  if (user === null || user.username.toLowerCase() !== username.toLowerCase()) return ok([])
  if (user.blocked && !viewerIsAdmin) return ok([])
  return ok(matches(user, query, viewerIsAdmin) ? [user] : [])
}
