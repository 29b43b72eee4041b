import { afterEach, describe, expect, it } from 'vitest'
import { parseListParams } from '../../src/query/params.js'
import { ALICE, closeAll, controlGet, startDashboardFake } from './support/dashboard-fake.js'

// GET /__patkit/tokens answers what the store's list (the query engine) answers for the same GitLab
// list parameters, over every user, with GitLab's pagination headers.

afterEach(closeAll)

const PAGE_HEADERS = ['x-total', 'x-total-pages', 'x-page', 'x-per-page', 'x-next-page', 'x-prev-page']

const QUERIES = [
  '',
  'per_page=7',
  'per_page=7&page=3',
  'per_page=7&page=9',
  'state=active',
  'state=inactive&sort=name_desc',
  'revoked=true&per_page=5&page=2',
  'user_id=3',
  'user_id=2&state=active&sort=created_desc',
  'search=deploy&sort=expires_asc',
  'search=token%203',
  'created_after=2025-01-10&created_before=2025-01-30T12:00:00Z',
  'last_used_after=2025-06-05&sort=last_used_desc',
  'last_used_before=2025-06-20',
  'expires_before=2026-03-01&expires_after=2026-01-02',
  'sort=id_desc&per_page=100',
]

describe('GET /__patkit/tokens', () => {
  it('answers the query engine’s page and total, and its pagination headers', async () => {
    const gitlab = await startDashboardFake()
    for (const query of QUERIES) {
      const { status, headers, body } = await controlGet(gitlab, `/tokens?${query}`)
      expect(status, query).toBe(200)
      const params = parseListParams(new URLSearchParams(query))._unsafeUnwrap()
      const { userRef, ...rest } = params
      const filter = userRef === undefined ? rest.filter : { ...rest.filter, userId: Number(userRef) }
      const expected = (
        await gitlab.store.list({ filter, sort: rest.sort, page: rest.page, now: gitlab.authority.now() })
      )._unsafeUnwrap()
      const rows = body as { id: number }[]
      expect(
        rows.map((row) => row.id),
        query,
      ).toEqual(expected.items.map((token) => token.id))
      const pages = Math.max(1, Math.ceil(expected.total / rest.page.perPage))
      const page = rest.page.page
      expect(
        PAGE_HEADERS.map((name) => headers.get(name)),
        query,
      ).toEqual([
        String(expected.total),
        String(pages),
        String(page),
        String(rest.page.perPage),
        page < pages ? String(page + 1) : '',
        page > 1 && page <= pages ? String(page - 1) : '',
      ])
    }
  })

  it('answers each token in the dashboard’s fields, never a digest', async () => {
    const gitlab = await startDashboardFake()
    // A use and a rotation: last_used_at, previous_id and family_id.
    await fetch(`${gitlab.apiUrl}/personal_access_tokens/self`, { headers: { 'PRIVATE-TOKEN': ALICE } })
    const rotated = await fetch(`${gitlab.apiUrl}/personal_access_tokens/self/rotate`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': ALICE },
    })
    const successor = ((await rotated.json()) as { id: number }).id
    const { body } = await controlGet(gitlab, '/tokens?sort=id_desc&per_page=1')
    expect(body).toEqual([
      {
        id: successor,
        user_id: 2,
        name: 'ci',
        scopes: ['api'],
        description: null,
        created_at: gitlab.authority.now().toISOString(),
        last_used_at: null,
        expires_at: expect.any(String),
        revoked: false,
        active: true,
        expired: false,
        impersonation: false,
        previous_id: 1,
        family_id: 1,
      },
    ])
    const { body: first } = await controlGet(gitlab, '/tokens?per_page=1')
    expect(first).toEqual([
      expect.objectContaining({ id: 1, revoked: true, active: false, last_used_at: expect.any(String) }),
    ])
    expect(JSON.stringify(first)).not.toMatch(/digest|glpat-/)
  })

  it('marks expired tokens: expired and not active', async () => {
    const gitlab = await startDashboardFake()
    const { body } = await controlGet(gitlab, '/tokens?per_page=100')
    const rows = body as {
      id: number
      expires_at: string
      expired: boolean
      active: boolean
      revoked: boolean
    }[]
    const expired = rows.filter((row) => row.expired)
    expect(expired.length).toBeGreaterThan(0)
    for (const row of expired) expect([row.active, row.expires_at <= '2026-01-01']).toEqual([false, true])
  })

  it('lists the tokens of a project’s or a group’s bots with resource_type and resource_id', async () => {
    const gitlab = await startDashboardFake()
    const ids = async (query: string) =>
      ((await controlGet(gitlab, `/tokens?${query}`)).body as { id: number }[]).map((row) => row.id)
    expect(await ids('resource_type=project&resource_id=1')).toEqual([42])
    expect(await ids('resource_type=group&resource_id=1')).toEqual([41])
    expect(await ids('resource_type=group&resource_id=1&state=inactive')).toEqual([])
    const unknown = await controlGet(gitlab, '/tokens?resource_type=project&resource_id=9')
    expect([unknown.status, unknown.body]).toEqual([404, { message: '404 Project Not Found' }])
  })

  it('refuses bad parameters with GitLab-like messages', async () => {
    const gitlab = await startDashboardFake()
    const cases: [string, string][] = [
      ['state=gone', 'state does not have a valid value'],
      ['per_page=0', 'per_page has a value not allowed'],
      ['created_after=yesterday', 'created_after is invalid'],
      ['revoked=maybe', 'revoked is invalid'],
      ['user_id=alice', 'user_id is invalid'],
      ['resource_type=project', 'resource_type, resource_id provide all or none of parameters'],
      ['resource_type=user&resource_id=1', 'resource_type does not have a valid value'],
      ['resource_type=group&resource_id=x', 'resource_id is invalid'],
    ]
    for (const [query, error] of cases) {
      const { status, body } = await controlGet(gitlab, `/tokens?${query}`)
      expect([query, status, body]).toEqual([query, 400, { error }])
    }
  })
})
