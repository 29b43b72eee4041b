import type { Visibility } from '../../../src/domain/resource.js'
import type { ResourceStore } from '../../../src/store/resource-store.js'
import { gitlabSpecWorld, type SpecUser } from './world.js'

// GitLab's factories for ee/spec/requests/api/group_service_accounts_spec.rb over the fake: groups
// (`create(:group)` is public; the spec's subgroup is private), members, service accounts
// (`create(:user, :service_account)`, provisioned by a group) and users. Every user is made through
// the store's `createUser`, so ids never collide with the accounts the API creates.

export async function serviceAccountWorld() {
  const w = await gitlabSpecWorld()
  const found = w.gitlab.store.resources
  if (found === undefined) throw new Error('the fake store holds no resources')
  const resources: ResourceStore = found
  let serial = 0
  let nextGroupId = 1

  async function person(
    admin: boolean,
    extra: { serviceAccount?: boolean; provisionedByGroupId?: number | null } = {},
  ): Promise<SpecUser> {
    serial += 1
    const prefix = extra.serviceAccount === true ? 'service_account_fixture' : 'user'
    const created = await resources.createUser({
      username: `${prefix}${serial}`,
      admin,
      blocked: false,
      ...extra,
    })
    if (created.isErr()) throw new Error('cannot create a user')
    return { id: created.value.id as number, username: created.value.username, admin }
  }

  async function group(options: { parentId?: number | null; visibility?: Visibility } = {}) {
    const id = nextGroupId++
    const parentId = options.parentId ?? null
    const parent = parentId === null ? null : await resources.findGroup(parentId)
    const parentPath = parent?.isOk() && parent.value !== null ? `${parent.value.fullPath}/` : ''
    const put = await resources.putGroup({
      id,
      path: `group${id}`,
      fullPath: `${parentPath}group${id}`,
      name: `Group ${id}`,
      parentId,
      visibility: options.visibility ?? 'public',
      members: [],
    })
    if (put.isErr()) throw new Error('cannot create a group')
    return put.value
  }

  async function addMember(groupId: number, user: SpecUser, accessLevel: 10 | 20 | 30 | 40 | 50) {
    const set = await resources.setMember({ type: 'group', id: groupId }, { userId: user.id, accessLevel })
    if (set.isErr()) throw new Error('cannot add a member')
  }

  async function findUser(id: number) {
    const found = await w.gitlab.store.findUser(id)
    if (found.isErr() || found.value === null) throw new Error(`no user ${id}`)
    return found.value
  }

  /** `user.update!(provisioned_by_group_id: ...)`. */
  async function provision(user: SpecUser, groupId: number | null) {
    const put = await w.gitlab.store.putUser({ ...(await findUser(user.id)), provisionedByGroupId: groupId })
    if (put.isErr()) throw new Error('cannot update a user')
  }

  return {
    ...w,
    user: () => person(false),
    admin: () => person(true),
    /** `create(:user, :service_account)` provisioned by `groupId`. */
    serviceAccount: (groupId: number | null) =>
      person(false, { serviceAccount: true, provisionedByGroupId: groupId }),
    /** A regular user whose `provisioned_by_group_id` is `groupId`. */
    provisionedUser: (groupId: number) => person(false, { provisionedByGroupId: groupId }),
    group,
    addOwner: (groupId: number, user: SpecUser) => addMember(groupId, user, 50),
    addMaintainer: (groupId: number, user: SpecUser) => addMember(groupId, user, 40),
    provision,
    findUser,
    /** The token as an administrator's admin_mode token reads it. */
    async reload(id: number) {
      const root = await person(true)
      const seer = await w.token({ user: root, scopes: ['api', 'admin_mode'] })
      const r = await w.send('GET', `/personal_access_tokens/${id}`, seer.secret)
      if (r.status !== 200) throw new Error(`token ${id}: ${r.status} ${r.text}`)
      return r.json as { revoked: boolean; active: boolean; expires_at: string | null }
    },
  }
}
