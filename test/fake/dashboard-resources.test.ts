import { afterEach, describe, expect, it } from 'vitest'
import { closeAll, controlGet, startDashboardFake } from './support/dashboard-fake.js'

// GET /__patkit/users, /groups and /projects: every one, GitLab's field names, paged as /tokens.

afterEach(closeAll)

describe('the users, groups and projects the dashboard lists', () => {
  it('lists every user, bots and service accounts too', async () => {
    const gitlab = await startDashboardFake()
    const { status, headers, body } = await controlGet(gitlab, '/users')
    expect([status, headers.get('x-total'), headers.get('x-per-page')]).toEqual([200, '6', '20'])
    const users = body as Record<string, unknown>[]
    expect(users.map((user) => user['id'])).toEqual([1, 2, 3, 4, 5, 6])
    expect(users[1]).toEqual({
      id: 2,
      username: 'alice',
      name: 'Alice',
      admin: false,
      blocked: false,
      bot: false,
      bot_namespace: null,
      service_account: false,
      provisioned_by_group_id: null,
    })
    expect(users[2]).toMatchObject({ username: 'bob', name: 'bob', blocked: true })
    expect(users[3]).toMatchObject({ bot: true, bot_namespace: { type: 'group', id: 1 } })
    expect(users[5]).toMatchObject({ service_account: true, provisioned_by_group_id: 1 })
  })

  it('pages with page and per_page and GitLab’s headers', async () => {
    const gitlab = await startDashboardFake()
    const { headers, body } = await controlGet(gitlab, '/users?per_page=4&page=2')
    expect((body as { id: number }[]).map((user) => user.id)).toEqual([5, 6])
    expect(
      ['x-total', 'x-total-pages', 'x-page', 'x-next-page', 'x-prev-page'].map((h) => headers.get(h)),
    ).toEqual(['6', '2', '2', '', '1'])
    const refused = await controlGet(gitlab, '/groups?per_page=0')
    expect([refused.status, refused.body]).toEqual([400, { error: 'per_page has a value not allowed' }])
  })

  it('lists groups and projects with members and bots', async () => {
    const gitlab = await startDashboardFake()
    expect((await controlGet(gitlab, '/groups')).body).toEqual([
      {
        id: 1,
        path: 'acme',
        full_path: 'acme',
        name: 'Acme',
        parent_id: null,
        visibility: 'private',
        members: [
          { user_id: 2, access_level: 50 },
          { user_id: 4, access_level: 40 },
        ],
        bots: [4],
      },
    ])
    expect((await controlGet(gitlab, '/projects')).body).toEqual([
      {
        id: 1,
        path: 'api',
        full_path: 'acme/api',
        name: 'API',
        group_id: 1,
        visibility: 'internal',
        members: [{ user_id: 5, access_level: 30 }],
        bots: [5],
      },
    ])
  })
})
