import { describe, expect, it } from 'vitest'
import { ADMIN, ALICE, BOB, DAY, T0 } from '../support/authority-fixtures.js'
import { httpWorld } from '../support/http-fixtures.js'

type TokenBody = { id: number; name: string; user_id: number; token?: string; expires_at: string | null }
const ids = (json: unknown) => (json as TokenBody[]).map((t) => t.id)

describe('design decisions over HTTP', () => {
  it('date filters: created_* and last_used_* are inclusive; a null last_used_at never matches', async () => {
    const { call, issue } = await httpWorld()
    const admin = await issue(ADMIN.id)
    const at = new Date(T0.getTime() - DAY)
    const a = await issue(ALICE.id, { createdAt: at, lastUsedAt: at })
    await issue(ALICE.id, { createdAt: new Date(at.getTime() - 1) })
    const iso = at.toISOString()
    const created = await call(
      'GET',
      `/personal_access_tokens?user_id=${ALICE.id}&created_after=${iso}&created_before=${iso}`,
      {
        token: admin.secret,
      },
    )
    expect(ids(created.json)).toEqual([a.token.id])
    const used = await call('GET', `/personal_access_tokens?user_id=${ALICE.id}&last_used_before=${iso}`, {
      token: admin.secret,
    })
    expect(ids(used.json)).toEqual([a.token.id])
  })

  it('state: inactive = revoked OR expired, expired from 00:00 UTC of expires_at', async () => {
    const { call, issue, clock } = await httpWorld()
    const admin = await issue(ADMIN.id, { expiresAt: null })
    const t = await issue(ALICE.id, { expiresAt: '2026-03-11' })
    clock.set(new Date('2026-03-10T23:59:59.999Z'))
    const before = await call('GET', `/personal_access_tokens?user_id=${ALICE.id}&state=active`, {
      token: admin.secret,
    })
    expect(ids(before.json)).toEqual([t.token.id])
    clock.set(new Date('2026-03-11T00:00:00.000Z'))
    const after = await call('GET', `/personal_access_tokens?user_id=${ALICE.id}&state=inactive`, {
      token: admin.secret,
    })
    expect(ids(after.json)).toEqual([t.token.id])
    expect((after.json as { active: boolean }[])[0]?.active).toBe(false)
  })

  it('state: a value other than active or inactive is 400 "state does not have a valid value"', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    const r = await call('GET', '/personal_access_tokens?state=all', { token: me.secret })
    expect(r.status).toBe(400)
    expect(r.text).toBe('{"error":"state does not have a valid value"}')
  })

  it('a malformed date filter is 400 "<param> is invalid"', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    const r = await call('GET', '/personal_access_tokens?created_after=yesterday', { token: me.secret })
    expect(r.status).toBe(400)
    expect(r.text).toBe('{"error":"created_after is invalid"}')
  })

  it("search: GitLab's fuzzy name search, % and _ literal", async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id, { name: 'main' })
    const t1 = await issue(ALICE.id, { name: 'Test_1 deploy' })
    await issue(ALICE.id, { name: 'test21 deploy' })
    const r = await call('GET', `/personal_access_tokens?search=${encodeURIComponent('test_1 DEPLOY')}`, {
      token: me.secret,
    })
    expect(ids(r.json)).toEqual([t1.token.id])
  })

  it('user_id: an admin naming an unknown or blank user gets 404', async () => {
    const { call, issue } = await httpWorld()
    const admin = await issue(ADMIN.id)
    for (const q of ['user_id=999', 'user_id=']) {
      const r = await call('GET', `/personal_access_tokens?${q}`, { token: admin.secret })
      expect(r.status).toBe(404)
      expect(r.text).toBe('{"message":"404 Not Found"}')
    }
  })

  it(':id: anything but a decimal integer or self is 400 "id is invalid", after authentication', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    for (const path of [
      '/personal_access_tokens/abc',
      '/personal_access_tokens/1.5',
      '/personal_access_tokens/-1/rotate',
    ]) {
      const method = path.endsWith('rotate') ? 'POST' : 'GET'
      const r = await call(method, path, { token: me.secret })
      expect(r.status, path).toBe(400)
      expect(r.text).toBe('{"error":"id is invalid"}')
    }
    expect((await call('GET', '/personal_access_tokens/abc')).status).toBe(401)
  })

  it('ordering: id ascending unless sort is given', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id, { name: 'b' })
    const z = await issue(ALICE.id, { name: 'z' })
    const a = await issue(ALICE.id, { name: 'a' })
    expect(ids((await call('GET', '/personal_access_tokens', { token: me.secret })).json)).toEqual([
      me.token.id,
      z.token.id,
      a.token.id,
    ])
    expect(
      ids((await call('GET', '/personal_access_tokens?sort=name_asc', { token: me.secret })).json),
    ).toEqual([a.token.id, me.token.id, z.token.id])
  })

  it('pagination: X-* headers and Link with absolute URLs as <URL>; rel="next", joined by ", "', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    for (let i = 0; i < 4; i++) await issue(ALICE.id)
    const r = await call('GET', '/personal_access_tokens?per_page=2&page=2&state=active', {
      token: me.secret,
    })
    expect(Object.fromEntries([...r.headers].filter(([k]) => k.startsWith('x-')))).toEqual({
      'x-total': '5',
      'x-total-pages': '3',
      'x-page': '2',
      'x-per-page': '2',
      'x-next-page': '3',
      'x-prev-page': '1',
    })
    const base = 'http://gitlab.test/api/v4/personal_access_tokens'
    expect(r.headers.get('link')).toBe(
      [
        `<${base}?page=1&per_page=2&state=active>; rel="prev"`,
        `<${base}?page=3&per_page=2&state=active>; rel="next"`,
        `<${base}?page=1&per_page=2&state=active>; rel="first"`,
        `<${base}?page=3&per_page=2&state=active>; rel="last"`,
      ].join(', '),
    )
  })

  it('pagination: publicUrl makes the Link URLs absolute on the public origin, and private_token never appears in them', async () => {
    const { call, issue } = await httpWorld({}, { publicUrl: 'https://gitlab.example.com' })
    const me = await issue(ALICE.id)
    const r = await call('GET', `/personal_access_tokens?private_token=${me.secret}`)
    expect(r.status).toBe(200)
    expect(r.headers.get('link')).toBe(
      '<https://gitlab.example.com/api/v4/personal_access_tokens?page=1&per_page=20>; rel="first", <https://gitlab.example.com/api/v4/personal_access_tokens?page=1&per_page=20>; rel="last"',
    )
    expect(r.headers.get('x-next-page')).toBe('')
  })

  it('pagination: per_page=0 is 400, above 100 is capped', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    const zero = await call('GET', '/personal_access_tokens?per_page=0', { token: me.secret })
    expect(zero.status).toBe(400)
    expect(zero.text).toBe('{"error":"per_page has a value not allowed"}')
    const big = await call('GET', '/personal_access_tokens?per_page=500', { token: me.secret })
    expect(big.headers.get('x-per-page')).toBe('100')
  })

  it('expires_at on rotate: at most today + 365 days, GitLab message above; the default is today + 7', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    const bad = await call('POST', '/personal_access_tokens/self/rotate', {
      token: me.secret,
      body: { expires_at: '2027-03-11' },
    })
    expect(bad.status).toBe(400)
    expect(bad.text).toBe('{"message":"400 Bad request - Expiration date must be before 2027-03-10"}')
    const past = await call('POST', '/personal_access_tokens/self/rotate', {
      token: me.secret,
      body: { expires_at: '2026-03-10' },
    })
    expect(past.text).toBe('{"message":"400 Bad request - Expiration date must be after 2026-03-10"}')
    const ok = await call('POST', '/personal_access_tokens/self/rotate', { token: me.secret })
    expect(ok.status).toBe(200)
    expect((ok.json as TokenBody).expires_at).toBe('2026-03-17')
  })

  it('rotate answers 200 with the token entity plus token, in GitLab field order', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id, { name: 'ci', description: 'd', scopes: ['api'] })
    const r = await call('POST', `/personal_access_tokens/${me.token.id}/rotate`, {
      token: me.secret,
      body: { expires_at: '2026-04-01' },
    })
    expect(r.status).toBe(200)
    const body = r.json as Record<string, unknown>
    // lib/api/entities/personal_access_token.rb (gitlabhq, id 52871404432): from 18.10 `active`
    // comes first, beside `expired` and `granular`.
    expect(Object.keys(body)).toEqual([
      'id',
      'name',
      'active',
      'revoked',
      'expired',
      'granular',
      'created_at',
      'description',
      'scopes',
      'user_id',
      'last_used_at',
      'expires_at',
      'token',
    ])
    expect(body).toMatchObject({
      expired: false,
      granular: false,
      name: 'ci',
      revoked: false,
      created_at: '2026-03-10T12:00:00.000Z',
      description: 'd',
      scopes: ['api'],
      user_id: ALICE.id,
      last_used_at: null,
      active: true,
      expires_at: '2026-04-01',
    })
    expect(body['token']).toMatch(/^glpat-[A-Za-z0-9_-]{32,}\.01\.[0-9a-z]{9}$/)
  })

  it('GET answers never carry a token value', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    for (const path of [
      '/personal_access_tokens',
      '/personal_access_tokens/self',
      `/personal_access_tokens/${me.token.id}`,
    ]) {
      const r = await call('GET', path, { token: me.secret })
      expect(r.text).not.toContain(me.secret)
      expect(r.text).not.toContain('"token":')
      expect(r.text).not.toContain(me.token.digest)
    }
  })

  it('scopes: read_api may GET but gets 403 insufficient_scope on DELETE by id', async () => {
    const { call, issue } = await httpWorld()
    const reader = await issue(ALICE.id, { scopes: ['read_api'] })
    expect((await call('GET', '/personal_access_tokens', { token: reader.secret })).status).toBe(200)
    const r = await call('DELETE', `/personal_access_tokens/${reader.token.id}`, { token: reader.secret })
    expect(r.status).toBe(403)
    expect(r.text).toBe(
      '{"error":"insufficient_scope","error_description":"The request requires higher privileges than provided by the access token.","scope":"api"}',
    )
  })

  it('scopes: GET and DELETE /self work with any scope', async () => {
    const { call, issue } = await httpWorld()
    const t = await issue(ALICE.id, { scopes: ['read_repository'] })
    expect((await call('GET', '/personal_access_tokens/self', { token: t.secret })).status).toBe(200)
    const r = await call('DELETE', '/personal_access_tokens/self', { token: t.secret })
    expect(r.status).toBe(204)
    expect(r.text).toBe('')
  })

  it('revoke of an unknown id is 404 "404 Not found" (lowercase) for everyone', async () => {
    const { call, issue } = await httpWorld()
    for (const user of [ALICE.id, ADMIN.id]) {
      const t = await issue(user)
      const r = await call('DELETE', '/personal_access_tokens/999', { token: t.secret })
      expect(r.status).toBe(404)
      expect(r.text).toBe('{"message":"404 Not found"}')
    }
  })

  it('auth sources: PRIVATE-TOKEN header, Authorization: Bearer, and private_token query parameter', async () => {
    const { call, issue } = await httpWorld()
    const t = await issue(ALICE.id)
    expect((await call('GET', '/personal_access_tokens/self', { token: t.secret })).status).toBe(200)
    expect(
      (
        await call('GET', '/personal_access_tokens/self', {
          headers: { authorization: `Bearer ${t.secret}` },
        })
      ).status,
    ).toBe(200)
    expect((await call('GET', `/personal_access_tokens/self?private_token=${t.secret}`)).status).toBe(200)
    const none = await call('GET', '/personal_access_tokens/self')
    expect(none.status).toBe(401)
    expect(none.text).toBe('{"message":"401 Unauthorized"}')
  })

  it('releases: a route absent from the emulated release answers 404 like an unknown route', async () => {
    const { call, issue } = await httpWorld({ release: '16.9' })
    const t = await issue(ALICE.id)
    const r = await call('POST', '/personal_access_tokens/self/rotate', { token: t.secret })
    expect(r.status).toBe(404)
    expect(r.text).toBe('{"error":"404 Not Found"}')
  })

  it('creation: an admin creates for a user with 201 and the token; others 403; unknown user 404', async () => {
    const { call, issue } = await httpWorld()
    const admin = await issue(ADMIN.id)
    const me = await issue(ALICE.id)
    const body = { name: 'ci', scopes: ['read_api'], expires_at: '2026-12-01' }
    const created = await call('POST', `/users/${BOB.id}/personal_access_tokens`, {
      token: admin.secret,
      body,
    })
    expect(created.status).toBe(201)
    expect(created.json).toMatchObject({
      user_id: BOB.id,
      name: 'ci',
      scopes: ['read_api'],
      expires_at: '2026-12-01',
    })
    expect((created.json as TokenBody).token).toMatch(/^glpat-/)
    const forbidden = await call('POST', `/users/${BOB.id}/personal_access_tokens`, {
      token: me.secret,
      body,
    })
    expect(forbidden.status).toBe(403)
    expect(forbidden.text).toBe('{"message":"403 Forbidden"}')
    const missing = await call('POST', '/users/999/personal_access_tokens', { token: admin.secret, body })
    expect(missing.status).toBe(404)
    expect(missing.text).toBe('{"message":"404 User Not Found"}')
  })

  it('creation: missing fields are 400 "<field> is missing", all of them, as Grape reports; unknown scopes 400', async () => {
    const { call, issue } = await httpWorld()
    const admin = await issue(ADMIN.id)
    const noName = await call('POST', `/users/${BOB.id}/personal_access_tokens`, {
      token: admin.secret,
      body: { scopes: ['api'] },
    })
    expect(noName.text).toBe('{"error":"name is missing"}')
    const noScopes = await call('POST', `/users/${BOB.id}/personal_access_tokens`, {
      token: admin.secret,
      body: { name: 'x' },
    })
    // From 19.6 `scopes` is one of exactly one with `granular_scopes` (Grape's exactly_one_of).
    expect(noScopes.text).toBe(
      '{"error":"scopes, granular_scopes are missing, exactly one parameter must be provided"}',
    )
    const nothing = await call('POST', `/users/${BOB.id}/personal_access_tokens`, {
      token: admin.secret,
      body: {},
    })
    expect(nothing.text).toBe(
      '{"error":"name is missing, scopes, granular_scopes are missing, exactly one parameter must be provided"}',
    )
    const badScope = await call('POST', `/users/${BOB.id}/personal_access_tokens`, {
      token: admin.secret,
      body: { name: 'x', scopes: ['root'] },
    })
    expect(badScope.status).toBe(400)
    expect(badScope.text).toBe('{"error":"scopes does not have a valid value"}')
  })

  it('creation for oneself: POST /user/personal_access_tokens limits scopes to k8s_proxy and self_rotate', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    const ok = await call('POST', '/user/personal_access_tokens', {
      token: me.secret,
      body: { name: 'k', scopes: ['k8s_proxy'] },
    })
    expect(ok.status).toBe(201)
    const bad = await call('POST', '/user/personal_access_tokens', {
      token: me.secret,
      body: { name: 'k', scopes: ['api'] },
    })
    expect(bad.status).toBe(400)
    expect(bad.text).toBe('{"error":"scopes does not have a valid value"}')
  })
})
