import { describe, expect, it } from 'vitest'
import { ADMIN, ALICE, BLOCKED, BOB } from '../support/authority-fixtures.js'
import { httpWorld } from '../support/http-fixtures.js'

// GitLab's rules that apply on every route (lib/api/helpers.rb `sudo!`, lib/api/api_guard.rb
// `find_current_user!`, Gitlab::Auth::UserAccessDeniedReason, the admin_mode and
// require_personal_access_token_expiry settings), checked on the token and users routes.

const INSUFFICIENT_SUDO = {
  error: 'insufficient_scope',
  error_description: 'The request requires higher privileges than provided by the access token.',
  scope: 'sudo',
}

describe('sudo', () => {
  it('an administrator token with the sudo scope acts as the user named by id or username, in the query, the body or the Sudo header', async () => {
    const w = await httpWorld()
    const root = await w.issue(ADMIN.id, { scopes: ['api', 'sudo'] })
    const alices = await w.issue(ALICE.id)
    await w.issue(BOB.id)
    for (const call of [
      () => w.call('GET', `/personal_access_tokens?sudo=${ALICE.id}`, { token: root.secret }),
      () => w.call('GET', '/personal_access_tokens?sudo=ALICE', { token: root.secret }),
      () => w.call('GET', '/personal_access_tokens', { token: root.secret, headers: { Sudo: 'alice' } }),
    ]) {
      const r = await call()
      expect(r.status).toBe(200)
      expect((r.json as { id: number }[]).map((t) => t.id)).toEqual([alices.token.id])
    }
    const me = await w.call('GET', '/api/v4/user', {
      token: root.secret,
      headers: { Sudo: String(ALICE.id) },
    })
    expect(me.json).toMatchObject({ id: ALICE.id, username: 'alice' })
    expect(me.json).not.toHaveProperty('is_admin')
    const created = await w.call('POST', `/users/${ALICE.id}/personal_access_tokens`, {
      token: root.secret,
      body: { name: 'by sudo', scopes: ['api'], sudo: 'alice' },
    })
    // Acting as alice, who is no administrator: GitLab's create for a user is an administrator's.
    expect(created.status).toBe(403)
  })

  it('a sudo token needs no route scope: GitLab validates only the sudo scope when acting as another user', async () => {
    const w = await httpWorld()
    const root = await w.issue(ADMIN.id, { scopes: ['sudo'] })
    expect((await w.call('GET', '/personal_access_tokens', { token: root.secret })).status).toBe(403)
    const r = await w.call('GET', '/personal_access_tokens?sudo=alice', { token: root.secret })
    expect(r.status).toBe(200)
    // Acting as oneself is no sudo: the route's scopes apply again.
    const self = await w.call('GET', '/personal_access_tokens?sudo=root', { token: root.secret })
    expect(self.status).toBe(403)
  })

  it('a non-administrator gets 403 Must be admin to use sudo', async () => {
    const w = await httpWorld()
    const alice = await w.issue(ALICE.id, { scopes: ['api', 'sudo'] })
    const r = await w.call('GET', `/personal_access_tokens?sudo=${BOB.id}`, { token: alice.secret })
    expect(r.status).toBe(403)
    expect(r.json).toEqual({ message: '403 Forbidden - Must be admin to use sudo' })
    const header = await w.call('GET', '/api/v4/user', { token: alice.secret, headers: { Sudo: 'bob' } })
    expect(header.json).toEqual({ message: '403 Forbidden - Must be admin to use sudo' })
  })

  it('an administrator token without the sudo scope gets the insufficient_scope 403 naming sudo', async () => {
    const w = await httpWorld()
    const root = await w.issue(ADMIN.id, { scopes: ['api'] })
    const r = await w.call('GET', '/personal_access_tokens?sudo=alice', { token: root.secret })
    expect(r.status).toBe(403)
    expect(r.json).toEqual(INSUFFICIENT_SUDO)
  })

  it("an unknown user is 404 User with ID or username 'x' Not Found, as given", async () => {
    const w = await httpWorld()
    const root = await w.issue(ADMIN.id, { scopes: ['api', 'sudo'] })
    for (const [given, query] of [
      ['nobody', 'nobody'],
      ['999', '999'],
      ['', ''],
      ['a b', 'a%20b'],
    ] as const) {
      const r = await w.call('GET', `/personal_access_tokens?sudo=${query}`, { token: root.secret })
      expect(r.status).toBe(404)
      expect(r.json).toEqual({ message: `404 User with ID or username '${given}' Not Found` })
    }
  })

  it('every route resolves sudo: a user no one has is 404 on each, before the route runs', async () => {
    const w = await httpWorld()
    const root = await w.issue(ADMIN.id, { scopes: ['api', 'sudo'] })
    const alices = await w.issue(ALICE.id)
    const imp = await w.issue(ALICE.id, { impersonation: true })
    w.events.length = 0
    const routes = [
      ['GET', '/personal_access_tokens'],
      ['GET', '/personal_access_tokens/self/associations'],
      ['GET', `/personal_access_tokens/${alices.token.id}`],
      ['DELETE', `/personal_access_tokens/${alices.token.id}`],
      ['POST', `/personal_access_tokens/${alices.token.id}/rotate`],
      ['POST', `/users/${ALICE.id}/personal_access_tokens`],
      ['POST', '/user/personal_access_tokens'],
      ['GET', `/users/${ALICE.id}/impersonation_tokens`],
      ['POST', `/users/${ALICE.id}/impersonation_tokens`],
      ['GET', `/users/${ALICE.id}/impersonation_tokens/${imp.token.id}`],
      ['DELETE', `/users/${ALICE.id}/impersonation_tokens/${imp.token.id}`],
      ['GET', '/api/v4/user'],
      ['GET', '/api/v4/users'],
      ['GET', `/api/v4/users/${ALICE.id}`],
      ['GET', '/api/v4/version'],
      ['GET', '/api/v4/metadata'],
    ] as const
    for (const [method, path] of routes) {
      const r = await w.call(method, path, { token: root.secret, headers: { Sudo: 'nobody' } })
      expect(r.status, `${method} ${path}`).toBe(404)
      expect(r.json).toEqual({ message: "404 User with ID or username 'nobody' Not Found" })
    }
    // Nothing ran past the refusal: the sudoer's own token was used, nothing else happened.
    expect(w.events.filter((e) => e.type !== 'used')).toEqual([])
  })

  it('sudo without a token is 401, even on routes that serve anonymous callers', async () => {
    const w = await httpWorld()
    for (const path of ['/personal_access_tokens', '/api/v4/users?username=alice', `/users/${ALICE.id}`]) {
      const r = await w.call('GET', `${path}${path.includes('?') ? '&' : '?'}sudo=alice`)
      expect(r.status).toBe(401)
      expect(r.json).toEqual({ message: '401 Unauthorized' })
    }
  })
})

describe('blocked users', () => {
  it('a valid token of a blocked user is 403 Your account has been blocked. on every route', async () => {
    const w = await httpWorld()
    const mallory = await w.issue(BLOCKED.id)
    for (const [method, path] of [
      ['GET', '/personal_access_tokens'],
      ['GET', '/personal_access_tokens/self'],
      ['POST', '/personal_access_tokens/self/rotate'],
      ['DELETE', '/personal_access_tokens/self'],
      ['GET', '/api/v4/user'],
      ['GET', `/users/${ALICE.id}`],
      ['GET', '/version'],
    ] as const) {
      const r = await w.call(method, path === '/version' ? '/api/v4/version' : path, {
        token: mallory.secret,
      })
      expect(r.status, `${method} ${path}`).toBe(403)
      expect(r.json).toEqual({ message: '403 Forbidden - Your account has been blocked.' })
    }
  })

  it('an expired token of a blocked user is 401 expired: the token is checked before its owner', async () => {
    const w = await httpWorld()
    const mallory = await w.issue(BLOCKED.id, { expiresAt: '2026-03-11' })
    w.clock.set(new Date('2026-03-12T00:00:00.000Z'))
    const r = await w.call('GET', '/personal_access_tokens/self', { token: mallory.secret })
    expect(r.status).toBe(401)
    expect(r.json).toMatchObject({ error: 'invalid_token' })
  })
})

describe('admin mode', () => {
  it('off (the default): an administrator acts as one with any token', async () => {
    const w = await httpWorld()
    const root = await w.issue(ADMIN.id)
    const alice = await w.issue(ALICE.id)
    const r = await w.call('GET', `/personal_access_tokens/${alice.token.id}`, { token: root.secret })
    expect(r.status).toBe(200)
  })

  it('on: an administrator token without admin_mode acts as a regular user; with it, as an administrator', async () => {
    const w = await httpWorld({ adminMode: true })
    const plain = await w.issue(ADMIN.id, { scopes: ['api'] })
    const elevated = await w.issue(ADMIN.id, { scopes: ['api', 'admin_mode'] })
    const alice = await w.issue(ALICE.id)
    const path = `/personal_access_tokens/${alice.token.id}`
    expect((await w.call('GET', path, { token: plain.secret })).status).toBe(401)
    expect((await w.call('GET', path, { token: elevated.secret })).status).toBe(200)
    const list = await w.call('GET', '/personal_access_tokens', { token: plain.secret })
    expect((list.json as { user_id: number }[]).every((t) => t.user_id === ADMIN.id)).toBe(true)
    // GET /user picks its entity by `admin?`, which Admin Mode leaves alone; GET /users/:id by the
    // admin-mode-aware `can_read_all_resources?`.
    const me = await w.call('GET', '/api/v4/user', { token: plain.secret })
    expect(me.json).toMatchObject({ is_admin: true })
    const other = await w.call('GET', `/api/v4/users/${ALICE.id}`, { token: plain.secret })
    expect(other.json).not.toHaveProperty('is_admin')
    const otherAdmin = await w.call('GET', `/api/v4/users/${ALICE.id}`, { token: elevated.secret })
    expect(otherAdmin.json).toMatchObject({ is_admin: false })
  })

  it('on: sudo needs an admin_mode token as well', async () => {
    const w = await httpWorld({ adminMode: true })
    const plain = await w.issue(ADMIN.id, { scopes: ['api', 'sudo'] })
    const elevated = await w.issue(ADMIN.id, { scopes: ['api', 'sudo', 'admin_mode'] })
    const denied = await w.call('GET', '/api/v4/user?sudo=alice', { token: plain.secret })
    expect(denied.json).toEqual({ message: '403 Forbidden - Must be admin to use sudo' })
    const r = await w.call('GET', '/api/v4/user?sudo=alice', { token: elevated.secret })
    expect(r.json).toMatchObject({ id: ALICE.id })
  })
})

describe('require_personal_access_token_expiry', () => {
  it('off: a rotation without expires_at gives a token that never expires; a create without it too', async () => {
    const w = await httpWorld({ requireExpiry: false })
    const alice = await w.issue(ALICE.id)
    const rotated = await w.call('POST', '/personal_access_tokens/self/rotate', { token: alice.secret })
    expect(rotated.status).toBe(200)
    expect(rotated.json).toMatchObject({ expires_at: null, active: true })
    const root = await w.issue(ADMIN.id)
    const created = await w.call('POST', `/users/${ALICE.id}/personal_access_tokens`, {
      token: root.secret,
      body: { name: 'forever', scopes: ['api'] },
    })
    expect(created.status).toBe(201)
    expect(created.json).toMatchObject({ expires_at: null })
  })

  it('on (the default): a rotation without expires_at expires one week later', async () => {
    const w = await httpWorld()
    const alice = await w.issue(ALICE.id)
    const rotated = await w.call('POST', '/personal_access_tokens/self/rotate', { token: alice.secret })
    expect(rotated.json).toMatchObject({ expires_at: '2026-03-17' })
  })
})

describe('Grape parameters and model errors on the token endpoints', () => {
  it("model errors on create are 422 {message} without a prefix: Scopes can't be blank, Description is too long", async () => {
    const w = await httpWorld()
    const root = await w.issue(ADMIN.id)
    const create = (body: unknown) =>
      w.call('POST', `/users/${ALICE.id}/personal_access_tokens`, { token: root.secret, body })
    const blank = await create({ name: 'x', scopes: [] })
    expect(blank.status).toBe(422)
    expect(blank.text).toBe(`{"message":"Scopes can't be blank"}`)
    const long = await create({ name: 'x', scopes: ['api'], description: 'd'.repeat(256) })
    expect(long.status).toBe(422)
    expect(long.text).toBe('{"message":"Description is too long (maximum is 255 characters)"}')
    const late = await create({ name: 'x', scopes: ['api'], expires_at: '2027-03-11' })
    expect(late.status).toBe(422)
    expect(late.text).toBe('{"message":"Expiration date must be before 2027-03-10"}')
  })

  it('a past expires_at on create makes a token that is inactive from the start', async () => {
    const w = await httpWorld()
    const root = await w.issue(ADMIN.id)
    const r = await w.call('POST', `/users/${ALICE.id}/personal_access_tokens`, {
      token: root.secret,
      body: { name: 'old', scopes: ['api'], expires_at: '2026-03-01' },
    })
    expect(r.status).toBe(201)
    expect(r.json).toMatchObject({ expires_at: '2026-03-01', active: false, revoked: false })
    const secret = (r.json as { token: string }).token
    const used = await w.call('GET', '/personal_access_tokens/self', { token: secret })
    expect(used.status).toBe(401)
  })

  it("an empty expires_at is no expires_at; a date-time one is its date (Grape's Date)", async () => {
    const w = await httpWorld()
    const alice = await w.issue(ALICE.id)
    const empty = await w.call('POST', '/personal_access_tokens/self/rotate', {
      token: alice.secret,
      body: { expires_at: '' },
    })
    expect(empty.json).toMatchObject({ expires_at: '2026-03-17' })
    const next = (empty.json as { token: string }).token
    const timed = await w.call('POST', '/personal_access_tokens/self/rotate', {
      token: next,
      rawBody: 'expires_at=2026-12-22+23%3A20%3A00+UTC',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(timed.json).toMatchObject({ expires_at: '2026-12-22' })
  })

  it('an empty typed list parameter is ignored over HTTP, not 400', async () => {
    const w = await httpWorld()
    const alice = await w.issue(ALICE.id)
    for (const query of ['created_after', 'created_after=', 'revoked=', 'expires_before']) {
      const r = await w.call('GET', `/personal_access_tokens?${query}`, { token: alice.secret })
      expect(r.status, query).toBe(200)
    }
  })
})

describe('GET /personal_access_tokens/self/associations', () => {
  it('answers empty groups and projects (patkit has none) with pagination headers, for any scope', async () => {
    const w = await httpWorld()
    const alice = await w.issue(ALICE.id, { scopes: ['read_repository'] })
    const r = await w.call(
      'GET',
      '/personal_access_tokens/self/associations?min_access_level=40&per_page=5',
      {
        token: alice.secret,
      },
    )
    expect(r.status).toBe(200)
    expect(r.text).toBe('{"groups":[],"projects":[]}')
    expect(r.headers.get('x-total')).toBe('0')
    expect(r.headers.get('x-page')).toBe('1')
    expect(r.headers.get('x-per-page')).toBe('5')
  })

  it('checks min_access_level and the pagination parameters as Grape does, every failure at once', async () => {
    const w = await httpWorld()
    const alice = await w.issue(ALICE.id)
    const get = (query: string) =>
      w.call('GET', `/personal_access_tokens/self/associations?${query}`, { token: alice.secret })
    expect((await get('min_access_level=35')).text).toBe(
      '{"error":"min_access_level does not have a valid value"}',
    )
    expect((await get('min_access_level=dev')).text).toBe('{"error":"min_access_level is invalid"}')
    expect((await get('min_access_level=dev&per_page=0')).text).toBe(
      '{"error":"min_access_level is invalid, per_page has a value not allowed"}',
    )
    expect((await get('min_access_level=')).status).toBe(200)
    expect((await get('min_access_level=15')).status).toBe(200)
  })

  it('exists from 17.4; the planner level 15 from 17.7; unknown tokens are 401', async () => {
    const old = await httpWorld({ release: '17.3' })
    const a = await old.issue(ALICE.id)
    const none = await old.call('GET', '/personal_access_tokens/self/associations', { token: a.secret })
    expect(none.status).toBe(404)
    expect(none.text).toBe('{"error":"404 Not Found"}')
    const w = await httpWorld({ release: '17.6' })
    const b = await w.issue(ALICE.id)
    const planner = await w.call('GET', '/personal_access_tokens/self/associations?min_access_level=15', {
      token: b.secret,
    })
    expect(planner.text).toBe('{"error":"min_access_level does not have a valid value"}')
    const unknown = await w.call('GET', '/personal_access_tokens/self/associations', {
      token: 'glpat-unknown',
    })
    expect(unknown.status).toBe(401)
  })
})

describe('seeds set a user state', () => {
  it('state blocked in a seed blocks the user; state and blocked must agree', async () => {
    const { createFakeGitLab } = await import('../../src/fake/index.js')
    const gitlab = await createFakeGitLab({
      users: [{ id: 5, username: 'eve', state: 'blocked' }],
      tokens: [{ user_id: 5, name: 'x', scopes: ['api'], token: 'glpat-eve-known-secret' }],
    })
    try {
      const r = await gitlab.handler(
        new Request(`${gitlab.apiUrl}/personal_access_tokens/self`, {
          headers: { 'PRIVATE-TOKEN': 'glpat-eve-known-secret' },
        }),
      )
      expect(r.status).toBe(403)
      expect(await r.json()).toEqual({ message: '403 Forbidden - Your account has been blocked.' })
    } finally {
      await gitlab.close()
    }
    await expect(
      createFakeGitLab({ users: [{ id: 5, username: 'eve', state: 'active', blocked: true }] }),
    ).rejects.toThrow(/users\[0\]\.state: state "active" contradicts blocked: true/)
  })
})
