import { describe, expect, it } from 'vitest'
import { serviceAccountWorld } from './group-service-account-world.js'
import { daysFromToday, ids, type SpecUser } from './world.js'

// GitLab's ee/spec/requests/api/group_service_accounts_spec.rb (pavankalisetti009/gitlab 023f2c7f), one
// test per `it` that HTTP can observe, over real HTTP against the fake; a shared example's `it` is
// ported once per context that runs it where the contexts differ for patkit. docs/conformance.md
// ("Group service accounts") maps them and lists those left out, with the reason.

type World = Awaited<ReturnType<typeof serviceAccountWorld>>

/** The spec's `let`s: `admin`, `user`, `group` (public), `service_account_user` provisioned by it. */
async function setup() {
  const w = await serviceAccountWorld()
  const admin = await w.admin()
  const user = await w.user()
  const group = await w.group()
  const serviceAccountUser = await w.serviceAccount(group.id)
  return { w, admin, user, group, serviceAccountUser }
}

const asAdmin = (admin: SpecUser) => ({ user: admin, adminMode: true })

describe('DELETE /groups/:id/service_accounts/:user_id', () => {
  const path = (groupId: number, userId: number | string) => `/groups/${groupId}/service_accounts/${userId}`

  describe('service account user deletion (as an administrator in Admin Mode)', () => {
    it('marks user for deletion', async () => {
      const { w, admin, group, serviceAccountUser } = await setup()
      const r = await w.api('DELETE', path(group.id, serviceAccountUser.id), asAdmin(admin))
      expect(r.status).toBe(204)
      expect((await w.findUser(serviceAccountUser.id)).blocked).toBe(true)
      const list = await w.api('GET', `/groups/${group.id}/service_accounts`, asAdmin(admin))
      expect(ids(list)).not.toContain(serviceAccountUser.id)
    })

    describe('when sole owner of a group', () => {
      it('does not mark user for deletion (hard delete disabled)', async () => {
        const { w, admin, group, serviceAccountUser } = await setup()
        const newGroup = await w.group()
        await w.addOwner(newGroup.id, serviceAccountUser)
        const r = await w.api('DELETE', path(group.id, serviceAccountUser.id), asAdmin(admin))
        expect((await w.findUser(serviceAccountUser.id)).blocked).toBe(false)
        expect(r.status).toBe(409)
        expect(r.json).toEqual({ message: 'User cannot be removed while is the sole-owner of a group' })
      })

      it('marks user for deletion and group is deleted (hard delete enabled)', async () => {
        const { w, admin, group, serviceAccountUser } = await setup()
        for (const owned of [await w.group(), await w.group()]) await w.addOwner(owned.id, serviceAccountUser)
        const r = await w.api(
          'DELETE',
          `${path(group.id, serviceAccountUser.id)}?hard_delete=true`,
          asAdmin(admin),
        )
        expect(r.status).toBe(204)
        expect((await w.findUser(serviceAccountUser.id)).blocked).toBe(true)
      })

      it('marks only user for deletion and group is not deleted (there is a subgroup)', async () => {
        const { w, admin, user, group, serviceAccountUser } = await setup()
        await w.addOwner((await w.group()).id, serviceAccountUser)
        const parentGroup = await w.group()
        await w.addOwner(parentGroup.id, await w.user())
        const subgroup = await w.group({ parentId: parentGroup.id })
        await w.addOwner(subgroup.id, user)
        const r = await w.api(
          'DELETE',
          `${path(group.id, serviceAccountUser.id)}?hard_delete=true`,
          asAdmin(admin),
        )
        expect(r.status).toBe(204)
        expect((await w.gitlab.store.resources?.findGroup(subgroup.id))?._unsafeUnwrap()).not.toBeNull()
        expect((await w.findUser(serviceAccountUser.id)).blocked).toBe(true)
      })
    })

    it('fails for unauthenticated user', async () => {
      const { w, group, serviceAccountUser } = await setup()
      const r = await w.api('DELETE', path(group.id, serviceAccountUser.id))
      expect((await w.findUser(serviceAccountUser.id)).blocked).toBe(false)
      expect(r.status).toBe(401)
    })

    it('returns 404 for non-existing user', async () => {
      const { w, admin, group } = await setup()
      const r = await w.api('DELETE', path(group.id, 999_999), asAdmin(admin))
      expect(r.status).toBe(404)
      expect(r.json).toEqual({ message: '404 User Not Found' })
    })

    it('returns a 400 for invalid ID', async () => {
      const { w, admin, group } = await setup()
      const r = await w.api('DELETE', path(group.id, 'ASDF'), asAdmin(admin))
      expect(r.status).toBe(400)
    })

    it('moves contributions to the ghost user (hard delete disabled)', async () => {
      const { w, admin, group, serviceAccountUser } = await setup()
      const token = await w.token({ user: serviceAccountUser })
      const r = await w.api('DELETE', path(group.id, serviceAccountUser.id), asAdmin(admin))
      expect(r.status).toBe(204)
      expect((await w.findUser(serviceAccountUser.id)).blocked).toBe(true)
      // What HTTP sees of it: the account's token no longer authenticates.
      expect((await w.send('GET', '/personal_access_tokens/self', token.secret)).status).toBe(401)
    })

    it('removes contributions (hard delete enabled)', async () => {
      const { w, admin, group, serviceAccountUser } = await setup()
      const r = await w.api(
        'DELETE',
        `${path(group.id, serviceAccountUser.id)}?hard_delete=true`,
        asAdmin(admin),
      )
      expect(r.status).toBe(204)
    })
  })

  it('DELETE request permissions for admin mode: 403 without Admin Mode, 204 with it', async () => {
    const { w, admin, group, serviceAccountUser } = await setup()
    const without = await w.api('DELETE', path(group.id, serviceAccountUser.id), { user: admin })
    expect(without.status).toBe(403)
    const withMode = await w.api('DELETE', path(group.id, serviceAccountUser.id), asAdmin(admin))
    expect(withMode.status).toBe(204)
  })

  it('is available for group owners', async () => {
    const { w, user, group, serviceAccountUser } = await setup()
    await w.addOwner(group.id, user)
    const r = await w.api('DELETE', path(group.id, serviceAccountUser.id), { user })
    expect(r.status).toBe(204)
    expect((await w.findUser(serviceAccountUser.id)).blocked).toBe(true)
  })

  it('is not available to non group owners', async () => {
    const { w, user, group, serviceAccountUser } = await setup()
    await w.addMaintainer(group.id, user)
    const r = await w.api('DELETE', path(group.id, serviceAccountUser.id), { user })
    expect(r.status).toBe(403)
  })
})

describe('POST /groups/:id/service_accounts', () => {
  const path = (groupId: number) => `/groups/${groupId}/service_accounts`
  const details = { name: 'John Doe', username: 'test', email: 'test_service_account@example.com' }

  // The shared example "service account user creation", for an administrator and for a group Owner.
  for (const as of ['admin', 'owner'] as const) {
    describe(`service account user creation (current user: ${as})`, () => {
      async function creator() {
        const s = await setup()
        if (as === 'owner') await s.w.addOwner(s.group.id, s.user)
        const who = as === 'admin' ? asAdmin(s.admin) : { user: s.user }
        return { ...s, who }
      }

      it('creates user and responds with the default values', async () => {
        const { w, group, who } = await creator()
        const r = await w.api('POST', path(group.id), who, {})
        expect(r.status).toBe(201)
        const body = r.json as Record<string, string>
        expect(body['username']).toMatch(new RegExp(`^service_account_group_${group.id}_[0-9a-f]{32}$`))
        expect(body['name']).toBe('Service account user')
        expect(body['email']).toMatch(new RegExp(`^service_account_group_${group.id}`))
        expect(Object.keys(body).sort()).toEqual(['email', 'id', 'name', 'public_email', 'username'])
      })

      it('creates the user with the correct attributes', async () => {
        const { w, group, who, admin } = await creator()
        const r = await w.api('POST', path(group.id), who, {})
        const id = (r.json as { id: number }).id
        // user_type service_account: GitLab's `bot?` is true for it.
        const shown = await w.api('GET', `/users/${id}`, asAdmin(admin))
        expect((shown.json as { bot: boolean }).bot).toBe(true)
        expect((await w.findUser(id)).provisionedByGroupId).toBe(group.id)
      })

      it('creates user with provided details', async () => {
        const { w, group, who } = await creator()
        const r = await w.api('POST', path(group.id), who, details)
        expect(r.status).toBe(201)
        const body = r.json as Record<string, string>
        expect(body['username']).toBe(details.username)
        expect(body['name']).toBe(details.name)
        // patkit keeps no email address: the generated one is shown (docs/conformance.md).
        expect(body['email']).toMatch(/^test@noreply\./)
        expect(Object.keys(body).sort()).toEqual(['email', 'id', 'name', 'public_email', 'username'])
      })

      it('returns error when user with the username and email already exists', async () => {
        const { w, group, who } = await creator()
        await w.api('POST', path(group.id), who, details)
        const r = await w.api('POST', path(group.id), who, details)
        expect(r.status).toBe(400)
        expect((r.json as { message: string }).message).toContain('Username has already been taken')
      })

      it('returns error when the group does not exist (params provided)', async () => {
        const { w, who } = await creator()
        const r = await w.api('POST', path(999_999), who, details)
        expect(r.status).toBe(404)
      })

      it('returns error when the group does not exist', async () => {
        const { w, who } = await creator()
        const r = await w.api('POST', path(999_999), who, {})
        expect(r.status).toBe(404)
      })
    })
  }

  it('for subgroup: creates the user with the correct attributes (administrator)', async () => {
    const { w, admin, group } = await setup()
    const subgroup = await w.group({ parentId: group.id, visibility: 'private' })
    const r = await w.api('POST', path(subgroup.id), asAdmin(admin), {})
    expect(r.status).toBe(201)
    const id = (r.json as { id: number }).id
    expect((await w.findUser(id)).provisionedByGroupId).toBe(subgroup.id)
  })

  it('ignores skip_owner_check and denies service account creation', async () => {
    const { w, group } = await setup()
    const nonOwner = await w.user()
    await w.addMaintainer(group.id, nonOwner)
    const r = await w.api(
      'POST',
      path(group.id),
      { user: nonOwner },
      {
        name: 'John Doe',
        username: 'test_malicious',
        email: 'malicious@example.com',
        skip_owner_check: true,
        composite_identity_enforced: true,
      },
    )
    expect(r.status).toBe(403)
    expect(r.json).toEqual({ message: '403 Forbidden' })
  })
})

describe('GET /groups/:id/service_accounts', () => {
  const path = (groupId: number) => `/groups/${groupId}/service_accounts`

  async function listed() {
    const s = await setup()
    const serviceAccountUser2 = await s.w.serviceAccount(s.group.id)
    const regularUser = await s.w.provisionedUser(s.group.id)
    await s.w.addOwner(s.group.id, s.user)
    return { ...s, serviceAccountUser2, regularUser }
  }

  // `order_by=username`: the spec renames the accounts Auser and Buser.
  async function renamed() {
    const s = await listed()
    for (const [who, username] of [
      [s.serviceAccountUser, 'Auser'],
      [s.serviceAccountUser2, 'Buser'],
    ] as const) {
      const put = await s.w.gitlab.store.putUser({ ...(await s.w.findUser(who.id)), username })
      if (put.isErr()) throw new Error('rename')
    }
    return s
  }

  it('returns 200 status and service account users list', async () => {
    const { w, user, group, regularUser } = await listed()
    const r = await w.api('GET', path(group.id), { user })
    expect(r.status).toBe(200)
    expect(r.json).toHaveLength(2)
    expect(ids(r)).not.toContain(regularUser.id)
  })

  it('returns ordered list by username in desc order', async () => {
    const { w, user, group, serviceAccountUser, serviceAccountUser2 } = await renamed()
    const r = await w.api('GET', path(group.id), { user }, { order_by: 'username' })
    expect(ids(r)).toEqual([serviceAccountUser2.id, serviceAccountUser.id])
    expect(r.headers.get('x-total')).toBe('2')
  })

  it('follows sorting order', async () => {
    const { w, user, group, serviceAccountUser, serviceAccountUser2 } = await renamed()
    const r = await w.api('GET', path(group.id), { user }, { order_by: 'username', sort: 'asc' })
    expect(ids(r)).toEqual([serviceAccountUser.id, serviceAccountUser2.id])
  })

  it('does not order by any other column than username and id', async () => {
    const { w, user, group } = await listed()
    const r = await w.api('GET', path(group.id), { user }, { order_by: 'name' })
    expect(r.status).toBe(400)
  })

  it('returns error when group does not exist', async () => {
    const { w, user } = await listed()
    const r = await w.api('GET', path(999_999), { user })
    expect(r.status).toBe(404)
  })

  it('throws forbidden error when user is not group owner', async () => {
    const { w, user, group } = await setup()
    await w.addMaintainer(group.id, user)
    const r = await w.api('GET', path(group.id), { user })
    expect(r.status).toBe(403)
  })
})

describe('GET /groups/:id/service_accounts/:user_id/personal_access_tokens', () => {
  const path = (groupId: number, userId: number) =>
    `/groups/${groupId}/service_accounts/${userId}/personal_access_tokens`

  /** The spec's ten tokens of the service account, the caller a top-level group Owner. */
  async function tokens() {
    const s = await setup()
    await s.w.addOwner(s.group.id, s.user)
    const sa = s.serviceAccountUser
    const ago = (days: number) => new Date(Date.parse(`${daysFromToday(-days)}T10:00:00.000Z`))
    const t = {
      active1: await s.w.token({ user: sa }),
      active2: await s.w.token({ user: sa }),
      expired1: await s.w.token({ user: sa, expiresAt: daysFromToday(-365) }),
      expired2: await s.w.token({ user: sa, expiresAt: daysFromToday(-365) }),
      revoked1: await s.w.token({ user: sa, revoked: true }),
      revoked2: await s.w.token({ user: sa, revoked: true }),
      created2DaysAgo: await s.w.token({ user: sa, createdAt: ago(2) }),
      named: await s.w.token({ user: sa, name: 'test_1' }),
      lastUsed2DaysAgo: await s.w.token({ user: sa, lastUsedAt: ago(2) }),
      lastUsed2MonthsAgo: await s.w.token({ user: sa, lastUsedAt: ago(60) }),
    }
    const get = (params?: Record<string, unknown>) =>
      s.w.api('GET', path(s.group.id, sa.id), { user: s.user }, params)
    return { ...s, t, get, all: Object.values(t).map((x) => x.id) }
  }

  describe('an access token GET API with access token params', () => {
    it('lists every token of the service account, with pagination headers', async () => {
      const { get, all } = await tokens()
      const r = await get()
      expect(r.status).toBe(200)
      expect(ids(r).sort((a, b) => a - b)).toEqual([...all].sort((a, b) => a - b))
      expect(r.headers.get('x-total')).toBe('10')
    })

    it('filters by revoked', async () => {
      const { get, t } = await tokens()
      expect(ids(await get({ revoked: true }))).toEqual([t.revoked1.id, t.revoked2.id])
      expect(ids(await get({ revoked: false }))).toHaveLength(8)
    })

    it('filters by state', async () => {
      const { get, t } = await tokens()
      expect(ids(await get({ state: 'inactive' }))).toEqual([
        t.expired1.id,
        t.expired2.id,
        t.revoked1.id,
        t.revoked2.id,
      ])
      expect(ids(await get({ state: 'active' }))).toHaveLength(6)
    })

    it('filters by created_before and created_after', async () => {
      const { get, t } = await tokens()
      expect(ids(await get({ created_before: daysFromToday(-1) }))).toEqual([t.created2DaysAgo.id])
      expect(ids(await get({ created_after: daysFromToday(-1) }))).toHaveLength(9)
    })

    it('filters by last_used_before and last_used_after', async () => {
      const { get, t } = await tokens()
      expect(ids(await get({ last_used_before: daysFromToday(-1) }))).toEqual([
        t.lastUsed2DaysAgo.id,
        t.lastUsed2MonthsAgo.id,
      ])
      expect(ids(await get({ last_used_after: daysFromToday(-30) }))).toEqual([t.lastUsed2DaysAgo.id])
    })

    it('searches by name and sorts', async () => {
      const { get, t, all } = await tokens()
      expect(ids(await get({ search: 'test_1' }))).toEqual([t.named.id])
      expect(ids(await get({ sort: 'created_asc' }))[0]).toBe(t.created2DaysAgo.id)
      expect(ids(await get({ sort: 'id_desc' }))[0]).toBe(Math.max(...all))
    })
  })

  it('returns error when the service_account is not provisioned_by the group', async () => {
    const { w, user, group, serviceAccountUser } = await setup()
    await w.addOwner(group.id, user)
    await w.provision(serviceAccountUser, null)
    const r = await w.api('GET', path(group.id, serviceAccountUser.id), { user })
    expect(r.status).toBe(404)
  })

  it('returns bad request error when the target_user is not a service account', async () => {
    const { w, user, group } = await setup()
    await w.addOwner(group.id, user)
    const regularUser = await w.provisionedUser(group.id)
    const r = await w.api('GET', path(group.id, regularUser.id), { user })
    expect(r.status).toBe(400)
    expect(r.json).toEqual({ message: '400 Bad request - User is not of type Service Account' })
  })

  it('returns error when group does not exist', async () => {
    const { w, user, serviceAccountUser } = await setup()
    const r = await w.api('GET', path(999_999, serviceAccountUser.id), { user })
    expect(r.status).toBe(404)
    expect(r.json).toEqual({ message: '404 Group Not Found' })
  })

  it('returns error when service account does not exist (the caller is no member)', async () => {
    const { w, user, group } = await setup()
    const r = await w.api('GET', path(group.id, 999_999), { user })
    expect(r.status).toBe(403)
  })

  it('returns error when user is not a top-level-group owner', async () => {
    const { w, user, group, serviceAccountUser } = await setup()
    await w.addMaintainer(group.id, user)
    const r = await w.api('GET', path(group.id, serviceAccountUser.id), { user })
    expect(r.status).toBe(403)
  })

  it('returns error without authentication (a signed-in non-member)', async () => {
    const { w, user, group, serviceAccountUser } = await setup()
    const r = await w.api('GET', path(group.id, serviceAccountUser.id), { user })
    expect(r.status).toBe(403)
  })
})

describe('POST /groups/:id/service_accounts/:user_id/personal_access_tokens', () => {
  const path = (groupId: number, userId: number) =>
    `/groups/${groupId}/service_accounts/${userId}/personal_access_tokens`
  const params = {
    name: 'new pat',
    description: 'description',
    expires_at: daysFromToday(3),
    scopes: ['api', 'read_user'],
  }

  async function owner() {
    const s = await setup()
    await s.w.addOwner(s.group.id, s.user)
    return s
  }

  it('creates personal access token for the user', async () => {
    const { w, user, group, serviceAccountUser } = await owner()
    const r = await w.api('POST', path(group.id, serviceAccountUser.id), { user }, params)
    expect(r.status).toBe(201)
    const body = r.json as Record<string, unknown>
    expect(body['name']).toBe(params.name)
    expect(body['description']).toBe(params.description)
    expect(body['scopes']).toEqual(params.scopes)
    expect(body['expires_at']).toBe(params.expires_at)
    expect(body['id']).toBeTypeOf('number')
    expect(body['created_at']).toBeTypeOf('string')
    expect(body['active']).toBe(true)
    expect(body['revoked']).toBe(false)
    expect(body['token']).toMatch(/^glpat-/)
    expect(body['user_id']).toBe(serviceAccountUser.id)
  })

  it('returns the error when an error is thrown by the model (422, the bare message)', async () => {
    const { w, user, group, serviceAccountUser } = await owner()
    // An admin-only scope for a service account is refused by the model: an observable model error.
    const r = await w.api(
      'POST',
      path(group.id, serviceAccountUser.id),
      { user },
      { ...params, scopes: ['sudo'] },
    )
    expect(r.status).toBe(422)
    expect((r.json as { message: string }).message).not.toMatch(/^4\d\d /)
  })

  it('returns error when service account does not belong to the group', async () => {
    const { w, user, group, serviceAccountUser } = await owner()
    await w.provision(serviceAccountUser, null)
    const r = await w.api('POST', path(group.id, serviceAccountUser.id), { user }, params)
    expect(r.status).toBe(404)
    expect(r.json).toEqual({ message: '404 User Not Found' })
  })

  it('returns bad request error when target user is not a service account', async () => {
    const { w, user, group } = await owner()
    const regularUser = await w.provisionedUser(group.id)
    const r = await w.api('POST', path(group.id, regularUser.id), { user }, params)
    expect(r.status).toBe(400)
  })

  it('returns error when group does not exist', async () => {
    const { w, user, serviceAccountUser } = await owner()
    const r = await w.api('POST', path(999_999, serviceAccountUser.id), { user }, params)
    expect(r.status).toBe(404)
  })

  it('returns error when user is not a group owner', async () => {
    const { w, user, group, serviceAccountUser } = await setup()
    await w.addMaintainer(group.id, user)
    const r = await w.api('POST', path(group.id, serviceAccountUser.id), { user }, params)
    expect(r.status).toBe(403)
  })

  it('returns error without authentication (a signed-in non-member)', async () => {
    const { w, user, group, serviceAccountUser } = await setup()
    const r = await w.api('POST', path(group.id, serviceAccountUser.id), { user }, params)
    expect(r.status).toBe(403)
  })
})

describe('DELETE /groups/:id/service_accounts/:user_id/personal_access_tokens/:token_id', () => {
  const path = (groupId: number, userId: number, tokenId: number) =>
    `/groups/${groupId}/service_accounts/${userId}/personal_access_tokens/${tokenId}`

  async function revocation() {
    const s = await setup()
    const token = await s.w.token({ user: s.serviceAccountUser })
    return { ...s, token }
  }

  it('revokes the token (an administrator in Admin Mode)', async () => {
    const { w, admin, group, serviceAccountUser, token } = await revocation()
    const r = await w.api('DELETE', path(group.id, serviceAccountUser.id, token.id), asAdmin(admin))
    expect(r.status).toBe(204)
    expect((await w.reload(token.id)).revoked).toBe(true)
  })

  it('returns a forbidden response (an administrator without Admin Mode)', async () => {
    const { w, admin, group, serviceAccountUser, token } = await revocation()
    const r = await w.api('DELETE', path(group.id, serviceAccountUser.id, token.id), { user: admin })
    expect(r.status).toBe(403)
  })

  describe('when the requesting user is a group owner', () => {
    async function owner() {
      const s = await revocation()
      await s.w.addOwner(s.group.id, s.user)
      return s
    }

    it('revokes the token', async () => {
      const { w, user, group, serviceAccountUser, token } = await owner()
      const r = await w.api('DELETE', path(group.id, serviceAccountUser.id, token.id), { user })
      expect(r.status).toBe(204)
      expect((await w.reload(token.id)).revoked).toBe(true)
    })

    it('returns not found when the token does not exist', async () => {
      const { w, user, group, serviceAccountUser } = await owner()
      const r = await w.api('DELETE', path(group.id, serviceAccountUser.id, 999_999), { user })
      expect(r.status).toBe(404)
    })

    it('returns not found when the token does not belong to the service account user', async () => {
      const { w, user, group, serviceAccountUser } = await owner()
      const other = await w.token({ user: await w.user() })
      const r = await w.api('DELETE', path(group.id, serviceAccountUser.id, other.id), { user })
      expect(r.status).toBe(404)
      expect(r.json).toEqual({ message: '404 Personal Access Token Not Found' })
      expect((await w.reload(other.id)).revoked).toBe(false)
    })

    it('returns not found when the service account does not belong to the group', async () => {
      const { w, user, group, serviceAccountUser, token } = await owner()
      await w.provision(serviceAccountUser, (await w.group()).id)
      const r = await w.api('DELETE', path(group.id, serviceAccountUser.id, token.id), { user })
      expect(r.status).toBe(404)
      expect(r.json).toEqual({ message: '404 User Not Found' })
    })

    it('returns not found when the group does not exist', async () => {
      const { w, user, serviceAccountUser, token } = await owner()
      const r = await w.api('DELETE', path(999_999, serviceAccountUser.id, token.id), { user })
      expect(r.status).toBe(404)
    })

    it('returns bad request error when target user is not a service account', async () => {
      const { w, user, group } = await owner()
      const regularUser = await w.provisionedUser(group.id)
      const token = await w.token({ user: regularUser })
      const r = await w.api('DELETE', path(group.id, regularUser.id, token.id), { user })
      expect(r.status).toBe(400)
    })
  })

  it('returns a forbidden response when user is not a group owner', async () => {
    const { w, user, group, serviceAccountUser, token } = await revocation()
    await w.addMaintainer(group.id, user)
    const r = await w.api('DELETE', path(group.id, serviceAccountUser.id, token.id), { user })
    expect(r.status).toBe(403)
  })

  it('returns unauthorized without authentication', async () => {
    const { w, group, serviceAccountUser, token } = await revocation()
    const r = await w.api('DELETE', path(group.id, serviceAccountUser.id, token.id))
    expect(r.status).toBe(401)
  })
})

describe('POST /groups/:id/service_accounts/:user_id/personal_access_tokens/:token_id/rotate', () => {
  const path = (groupId: number, userId: number, tokenId: number) =>
    `/groups/${groupId}/service_accounts/${userId}/personal_access_tokens/${tokenId}/rotate`

  async function rotation(as: 'owner' | 'none' = 'owner') {
    const s = await setup()
    if (as === 'owner') await s.w.addOwner(s.group.id, s.user)
    const token = await s.w.token({ user: s.serviceAccountUser })
    return { ...s, token }
  }

  async function expectRotated(
    w: World,
    r: Awaited<ReturnType<World['api']>>,
    old: { id: number; secret: string },
  ) {
    expect(r.status).toBe(200)
    expect((await w.reload(old.id)).revoked).toBe(true)
    expect((r.json as { token: string }).token).not.toBe(old.secret)
  }

  it('revokes the token (an administrator in Admin Mode)', async () => {
    const { w, admin, group, serviceAccountUser, token } = await rotation('none')
    const r = await w.api('POST', path(group.id, serviceAccountUser.id, token.id), asAdmin(admin))
    await expectRotated(w, r, token)
    expect((r.json as { expires_at: string }).expires_at).toBe(daysFromToday(7))
  })

  it('revokes the token (a group owner)', async () => {
    const { w, user, group, serviceAccountUser, token } = await rotation()
    const r = await w.api('POST', path(group.id, serviceAccountUser.id, token.id), { user })
    await expectRotated(w, r, token)
    expect((r.json as { expires_at: string }).expires_at).toBe(daysFromToday(7))
  })

  it('allows owner to rotate token when expiry is defined', async () => {
    const { w, user, group, serviceAccountUser, token } = await rotation()
    const expiresAt = daysFromToday(31)
    const r = await w.api(
      'POST',
      path(group.id, serviceAccountUser.id, token.id),
      { user },
      { expires_at: expiresAt },
    )
    await expectRotated(w, r, token)
    expect((r.json as { expires_at: string }).expires_at).toBe(expiresAt)
  })

  it('returns error message when service raises an error (token already revoked)', async () => {
    const { w, user, group, serviceAccountUser, token } = await rotation()
    await w.api('DELETE', path(group.id, serviceAccountUser.id, token.id).replace(/\/rotate$/, ''), { user })
    const r = await w.api('POST', path(group.id, serviceAccountUser.id, token.id), { user })
    expect(r.status).toBe(400)
    expect(r.json).toEqual({ message: '400 Bad request - Token already revoked' })
  })

  it('returns not found when token does not exist', async () => {
    const { w, user, group, serviceAccountUser } = await rotation()
    const r = await w.api('POST', path(group.id, serviceAccountUser.id, 999_999), { user })
    expect(r.status).toBe(404)
  })

  it('returns not found when token does not belong to service account user', async () => {
    const { w, user, group, serviceAccountUser } = await rotation()
    const other = await w.token({ user: await w.user() })
    const r = await w.api('POST', path(group.id, serviceAccountUser.id, other.id), { user })
    expect(r.status).toBe(404)
    expect(r.json).toEqual({ message: '404 Not Found' })
    expect((await w.reload(other.id)).revoked).toBe(false)
  })

  it('returns error when service account does not belong to the group', async () => {
    const { w, user, group, serviceAccountUser, token } = await rotation()
    await w.provision(serviceAccountUser, null)
    const r = await w.api('POST', path(group.id, serviceAccountUser.id, token.id), { user })
    expect(r.status).toBe(404)
  })

  it('returns bad request error when target user is not a service account', async () => {
    const { w, user, group } = await rotation()
    const regularUser = await w.provisionedUser(group.id)
    const token = await w.token({ user: regularUser })
    const r = await w.api('POST', path(group.id, regularUser.id, token.id), { user })
    expect(r.status).toBe(400)
  })

  it('returns error when group does not exist', async () => {
    const { w, user, serviceAccountUser, token } = await rotation()
    const r = await w.api('POST', path(999_999, serviceAccountUser.id, token.id), { user })
    expect(r.status).toBe(404)
  })

  it('throws error when user is not a group owner', async () => {
    const { w, user, group, serviceAccountUser, token } = await rotation('none')
    const r = await w.api('POST', path(group.id, serviceAccountUser.id, token.id), { user })
    expect(r.status).toBe(403)
  })
})
