import { err, ok, type Result } from 'neverthrow'
import { badRequest, forbidden, notFound } from '../../domain/error-constructors.js'
import type { ErrorOf, StoreFailure } from '../../domain/errors.js'
import type { Group } from '../../domain/resource.js'
import type { User } from '../../store/user.js'
import type { AuthorityDeps } from '../core/deps.js'
import { type Actor, actsAsAdmin } from '../core/principal.js'
import { groupInView, viewerOf } from '../core/resource-access.js'
import { requireScope } from '../core/scope-policy.js'

/** How the group service account routes fail before their own work: scope, group, permission, account. */
export type ServiceAccountAccessError =
  | ErrorOf<'insufficient_scope' | 'not_found' | 'forbidden' | 'bad_request'>
  | StoreFailure

const OWNER = 50

// GitLab's `authorize! :admin_service_accounts, user_group`: an administrator (in Admin Mode), or an
// Owner of a top-level group (GitLab.com's rule; a self-managed instance needs the setting
// `allow_top_level_group_owners_to_create_service_accounts`, which patkit takes as on). A subgroup's
// Owner is refused: service accounts belong to top-level groups.
function administers(caller: Actor, group: Group, access: number | null): boolean {
  if (actsAsAdmin(caller)) return true
  return group.parentId === null && access !== null && access >= OWNER
}

/**
 * The group `:id` names, when the caller may manage its service accounts: the token's scope first
 * (the API's `api`/`read_api`), then `404 Group Not Found` (`find_group!`), then 403.
 */
export async function serviceAccountGroup(
  deps: AuthorityDeps,
  caller: Actor,
  groupRef: string,
  scopes: readonly string[],
): Promise<Result<Group, ServiceAccountAccessError>> {
  const scoped = requireScope(caller, scopes)
  if (scoped.isErr()) return err(scoped.error)
  const found = await groupInView(deps, viewerOf(caller), groupRef)
  if (found.isErr()) return err(found.error)
  const { resource, access } = found.value
  return administers(caller, resource, access) ? ok(resource) : err(forbidden())
}

/**
 * A user the group provisioned (`user_group.provisioned_users.find_by_id`), which must be a service
 * account: `404 User Not Found`, else `400 User is not of type Service Account`. An account the API
 * deleted (blocked, see `serviceAccounts.deleteFromGroup`) is gone.
 */
export async function provisionedAccount(
  deps: AuthorityDeps,
  group: Group,
  userId: number,
): Promise<Result<User, ErrorOf<'not_found' | 'bad_request'> | StoreFailure>> {
  const found = await deps.userById(userId)
  if (found.isErr()) return err(found.error)
  const user = found.value
  if (user === null || user.provisionedByGroupId !== group.id || isDeleted(user)) return err(notFound('user'))
  if (user.serviceAccount !== true) return err(badRequest('User is not of type Service Account'))
  return ok(user)
}

/**
 * The group's service accounts and then the user `:user_id` names: both route checks in GitLab's
 * order, for the routes under `/groups/:id/service_accounts/:user_id`.
 */
export async function groupAccount(
  deps: AuthorityDeps,
  caller: Actor,
  groupRef: string,
  userId: number,
  scopes: readonly string[],
): Promise<Result<{ readonly group: Group; readonly account: User }, ServiceAccountAccessError>> {
  const group = await serviceAccountGroup(deps, caller, groupRef, scopes)
  if (group.isErr()) return err(group.error)
  const account = await provisionedAccount(deps, group.value, userId)
  if (account.isErr()) return err(account.error)
  return ok({ group: group.value, account: account.value })
}

/**
 * patkit deletes a service account by blocking it (GitLab's first step; it then removes the user in
 * the background): a blocked service account is a deleted one, listed no more and addressed as
 * missing.
 */
export function isDeleted(user: User): boolean {
  return user.serviceAccount === true && user.blocked
}
