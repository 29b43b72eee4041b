import { describe, expect, it } from 'vitest'
import { seededRandom } from '../../src/domain/random.js'
import { gitlabSpecWorld } from '../e2e/gitlab-specs/world.js'

// The instance service account routes (ee/lib/api/service_accounts.rb) and what the users API shows
// of bots and service accounts, over the fake.

async function world() {
  const w = await gitlabSpecWorld({ random: () => seededRandom(7) })
  const admin = await w.admin()
  const asAdmin = { user: admin, adminMode: true }
  return { ...w, admin, asAdmin }
}

describe('POST and GET /service_accounts', () => {
  it('an administrator creates an instance service account with the default name and username', async () => {
    const w = await world()
    const r = await w.api('POST', '/service_accounts', w.asAdmin, {})
    expect(r.status).toBe(201)
    expect(r.json).toMatchObject({
      username: expect.stringMatching(/^service_account_[0-9a-f]{32}$/),
      name: 'Service account user',
      public_email: null,
    })
    const listed = await w.api('GET', '/service_accounts', w.asAdmin)
    expect((listed.json as { id: number }[]).map((u) => u.id)).toEqual([(r.json as { id: number }).id])
  })

  it('lists by id descending by default, by username ascending when asked', async () => {
    const w = await world()
    const b = (await w.api('POST', '/service_accounts', w.asAdmin, { username: 'b_sa', name: 'B' })).json as {
      id: number
    }
    const a = (await w.api('POST', '/service_accounts', w.asAdmin, { username: 'a_sa' })).json as {
      id: number
    }
    const byId = await w.api('GET', '/service_accounts', w.asAdmin)
    expect((byId.json as { id: number }[]).map((u) => u.id)).toEqual([a.id, b.id])
    const byName = await w.api('GET', '/service_accounts', w.asAdmin, { order_by: 'username', sort: 'asc' })
    expect((byName.json as { id: number }[]).map((u) => u.id)).toEqual([a.id, b.id])
    expect((await w.api('GET', '/service_accounts', w.asAdmin, { sort: 'up' })).status).toBe(400)
  })

  it('refuses non-administrators (403) and a taken username (400)', async () => {
    const w = await world()
    expect((await w.api('POST', '/service_accounts', { user: await w.user() }, {})).status).toBe(403)
    expect((await w.api('GET', '/service_accounts', { user: w.admin })).status).toBe(403)
    await w.api('POST', '/service_accounts', w.asAdmin, { username: 'taken' })
    const again = await w.api('POST', '/service_accounts', w.asAdmin, { username: 'TAKEN' })
    expect(again).toMatchObject({
      status: 400,
      json: { message: '400 Bad request - Username has already been taken' },
    })
  })

  it('is absent before its release', async () => {
    const w = await gitlabSpecWorld({ release: '17.0' })
    const admin = await w.admin()
    expect((await w.api('GET', '/service_accounts', { user: admin, adminMode: true })).status).toBe(404)
  })
})

describe('the users API and bots', () => {
  it('shows a service account as a bot with its name, and filters humans', async () => {
    const w = await world()
    const created = (
      await w.api('POST', '/service_accounts', w.asAdmin, { username: 'robot', name: 'Robot' })
    ).json as { id: number }
    const shown = await w.api('GET', `/users/${created.id}`, w.asAdmin)
    expect(shown.json).toMatchObject({ name: 'Robot', bot: true })
    const find = (flags: Record<string, unknown>) =>
      w
        .api('GET', '/users', w.asAdmin, { username: 'robot', ...flags })
        .then((r) => (r.json as unknown[]).length)
    expect(await find({ humans: true })).toBe(0)
    expect(await find({ exclude_humans: true })).toBe(1)
    expect(await find({ without_project_bots: true })).toBe(1)
    const human = await w.user()
    const humanFound = await w.api('GET', '/users', w.asAdmin, { username: human.username, humans: true })
    expect(humanFound.json).toHaveLength(1)
    expect((humanFound.json as { bot: boolean }[])[0]?.bot).toBe(false)
  })
})
