import { err, ok, type Result } from 'neverthrow'
import { badRequest, conflict, forbidden } from '../domain/error-constructors.js'
import type { ErrorOf, StoreFailure } from '../domain/errors.js'
import type { Group } from '../domain/resource.js'
import { checkUsername } from '../domain/username.js'
import type { UserDraft } from '../store/resource-store.js'
import type { User } from '../store/user.js'
import type { AuthorityDeps } from './deps.js'
import { type Actor, actsAsAdmin } from './principal.js'
import { requireResources } from './resource-access.js'
import { revokeStored } from './revoke-stored.js'
import { requireScope } from './scope-policy.js'
import { isDeleted } from './service-account-access.js'

/**
 * A service account to create: GitLab's `name` (default `Service account user`) and `username`
 * (default `service_account_<hex>`, or `service_account_group_<group id>_<hex>` for a group's).
 */
export interface ServiceAccountRequest {
  readonly name?: string
  readonly username?: string
}

/** The order of a service account list: GitLab's `order_by` (`id`) and `sort` (`desc`). */
export interface ServiceAccountOrder {
  readonly orderBy?: 'id' | 'username'
  readonly sort?: 'asc' | 'desc'
}

/** How creating or listing service accounts fails. */
export type ServiceAccountUserError =
  | ErrorOf<'insufficient_scope' | 'forbidden' | 'not_found' | 'bad_request'>
  | StoreFailure

const DEFAULT_NAME = 'Service account user'

// GitLab's `SecureRandom.hex(16)`: 16 random bytes as 32 hex digits, from the injected source.
function hex16(deps: AuthorityDeps): string {
  return Array.from(deps.random.bytes(16), (b) => b.toString(16).padStart(2, '0')).join('')
}

/** Usernames drawn for one service account while each one is taken; then taken is the answer. */
const USERNAME_ATTEMPTS = 8

/** GitLab's `authenticated_as_admin!` of the instance routes: the scope, then 403 for non-administrators. */
export function requireAdministrator(
  caller: Actor,
  scopes: readonly string[],
): Result<void, ErrorOf<'insufficient_scope' | 'forbidden'>> {
  const scoped = requireScope(caller, scopes)
  if (scoped.isErr()) return scoped
  return actsAsAdmin(caller) ? ok(undefined) : err(forbidden())
}

/**
 * Creates a service account (`provisionedByGroupId`: the group's id, or `null` for an instance-wide
 * one). A given username GitLab would refuse is 400 with its message (`checkUsername`); one already
 * taken (in any case) is `400 Username has already been taken`. A drawn one found taken is drawn
 * again (at most `USERNAME_ATTEMPTS` times).
 */
export async function createServiceAccount(
  deps: AuthorityDeps,
  request: ServiceAccountRequest,
  group: Group | null,
): Promise<Result<User, ServiceAccountUserError>> {
  const resources = await requireResources(deps, 'createUser')
  if (resources.isErr()) return err(resources.error)
  const prefix = group === null ? 'service_account' : `service_account_group_${group.id}`
  const given = request.username === undefined || request.username === '' ? null : request.username
  // GitLab's user validations answer 400 with their full messages (Users::ServiceAccounts::CreateService:
  // `error(user.errors.full_messages.to_sentence, :bad_request)`).
  const checked = given === null ? null : checkUsername(given)
  if (checked?.isErr()) return err(checked.error)
  const name = request.name === undefined || request.name === '' ? DEFAULT_NAME : request.name
  // A drawn username found taken (a seeded random source replaying its sequence over a kept database
  // draws the names it drew before) is drawn again; a given one is the caller's, and taken is the answer.
  const attempts = given === null ? USERNAME_ATTEMPTS : 1
  for (let attempt = 1; ; attempt++) {
    const username = given ?? `${prefix}_${hex16(deps)}`
    const taken = await deps.users.findUser(username)
    if (taken.isErr()) return err(taken.error)
    if (taken.value !== null && taken.value.username.toLowerCase() === username.toLowerCase()) {
      if (attempt < attempts) continue
      return err(badRequest('Username has already been taken'))
    }
    const draft: UserDraft = {
      username,
      name,
      admin: false,
      blocked: false,
      bot: false,
      botNamespace: null,
      serviceAccount: true,
      provisionedByGroupId: group === null ? null : group.id,
    }
    const created = await resources.value.createUser(draft)
    if (created.isOk() || created.error.conflict !== 'username' || attempt >= attempts) return created
  }
}

/** The service accounts of a group (or the instance's, `null`), in the order asked (GitLab: id, desc). */
export async function listServiceAccounts(
  deps: AuthorityDeps,
  group: Group | null,
  order: ServiceAccountOrder,
): Promise<Result<readonly User[], StoreFailure>> {
  const resources = await requireResources(deps, 'listUsers')
  if (resources.isErr()) return err(resources.error)
  const listed = await resources.value.listUsers({
    serviceAccount: true,
    provisionedByGroupId: group === null ? null : group.id,
  })
  if (listed.isErr()) return err(listed.error)
  const key = order.orderBy ?? 'id'
  const direction = (order.sort ?? 'desc') === 'asc' ? 1 : -1
  const compare = (a: User, b: User): number => {
    const [x, y] = key === 'id' ? [a.id, b.id] : [a.username, b.username]
    return x < y ? -direction : x > y ? direction : 0
  }
  return ok(listed.value.filter((user) => !isDeleted(user)).sort(compare))
}

/**
 * Deletes a group's service account, as GitLab's `DELETE /groups/:id/service_accounts/:user_id`
 * appears over HTTP: 409 `User cannot be removed while is the sole-owner of a group` unless
 * `hardDelete`; then the account is blocked (GitLab blocks it and removes it in the background) and
 * its active tokens are revoked, so it is listed no more and its tokens authenticate no one. patkit
 * deletes no group (GitLab's `hard_delete` also deletes the groups the account solely owns).
 */
export async function deleteServiceAccount(
  deps: AuthorityDeps,
  caller: Actor,
  account: User,
  hardDelete: boolean,
): Promise<Result<void, ErrorOf<'conflict'> | StoreFailure>> {
  const resources = await requireResources(deps, 'listGroups')
  if (resources.isErr()) return err(resources.error)
  if (!hardDelete) {
    const groups = await resources.value.listGroups()
    if (groups.isErr()) return err(groups.error)
    if (groups.value.some((group) => soleOwner(group, account))) return err(conflict(SOLE_OWNER))
  }
  const blocked = await deps.store.putUser({ ...account, blocked: true })
  if (blocked.isErr()) return err(blocked.error)
  return revokeAll(deps, caller, account)
}

const SOLE_OWNER = 'User cannot be removed while is the sole-owner of a group'

function soleOwner(group: Group, account: User): boolean {
  const owners = group.members.filter((m) => m.accessLevel === 50)
  return owners.length === 1 && owners[0]?.userId === account.id
}

// GitLab destroys a deleted user's tokens with it; patkit revokes them (families and audit kept).
async function revokeAll(
  deps: AuthorityDeps,
  caller: Actor,
  account: User,
): Promise<Result<void, StoreFailure>> {
  const now = deps.clock.now()
  for (;;) {
    const page = await deps.store.list({
      filter: { userId: account.id, state: 'active' },
      sort: 'id_asc',
      page: { page: 1, perPage: 100 },
      now,
    })
    if (page.isErr()) return err(page.error)
    let progressed = false
    for (const token of page.value.items) {
      const revoked = await revokeStored(deps, caller.user.id, token)
      if (revoked.isErr()) return err(revoked.error)
      if (revoked.value === 'revoked') progressed = true
    }
    // Done when no active token is left, or none of this page could be revoked (revoked meanwhile).
    if (!progressed) return ok(undefined)
  }
}
