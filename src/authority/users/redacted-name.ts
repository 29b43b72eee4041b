import { err, ok, type Result } from 'neverthrow'
import type { StoreFailure } from '../../domain/errors.js'
import type { User } from '../../store/user.js'
import type { AuthorityDeps } from '../core/deps.js'
import type { Principal } from '../core/principal.js'
import { groupInView, projectInView, viewerOf } from '../core/resource-access.js'

/** What GitLab shows for a project bot's name to whoever may not see its project or group. */
export const REDACTED_NAME = '****'

/**
 * GitLab's `redacted_name` (app/models/concerns/has_user_type.rb, gitlabhq 0286e4c6; GitLab issue
 * 346058), which every user entity's `name` shows (`UserSafe`): a project or group access token's bot
 * shows its name only to a signed-in viewer who may read its group or project (a member, an
 * administrator acting as one, anyone signed in for an internal or public one); otherwise `****`,
 * to anonymous callers always. Other users, service accounts included, keep their name.
 */
export async function redactedFor(
  deps: AuthorityDeps,
  principal: Principal | null,
  user: User,
): Promise<Result<User, StoreFailure>> {
  if (user.bot !== true) return ok(user)
  const home = user.botNamespace ?? null
  if (principal === null || home === null) return ok({ ...user, name: REDACTED_NAME })
  const viewer = viewerOf(principal)
  const ref = String(home.id)
  const seen = await (home.type === 'group'
    ? groupInView(deps, viewer, ref)
    : projectInView(deps, viewer, ref))
  if (seen.isOk()) return ok(user)
  return seen.error.type === 'store_failure' ? err(seen.error) : ok({ ...user, name: REDACTED_NAME })
}
