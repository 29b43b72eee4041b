import { describe, expect, it } from 'vitest'
import type { IssueTokenInput } from '../../src/authority/personal/issue-token.js'
import { ADMIN, ALICE, BLOCKED, BOB } from '../support/authority-fixtures.js'
import { httpWorld } from '../support/http-fixtures.js'

// GitLab's spec/requests/api/users_spec.rb, the `it`s of GET /user, GET /users/:id and GET /users that
// apply to a token authority, one test each, titled as in GitLab (docs/conformance.md lists those left
// out and why). GitLab's `match_response_schema('public_api/v4/user/...')` becomes the exact entity
// below: patkit's values for the fields it cannot know are documented in src/http/user-json.ts.

const api = (path: string) => `/api/v4${path}`
type Json = Record<string, unknown>

/** A world with a token for root (admin), alice and bob, each with the given token fields. */
async function users(overrides: Partial<IssueTokenInput> = {}) {
  const w = await httpWorld()
  const root = await w.issue(ADMIN.id, overrides)
  const alice = await w.issue(ALICE.id, overrides)
  const get = (path: string, secret?: string, method = 'GET') =>
    w.call(method, api(path), secret === undefined ? {} : { token: secret })
  return { ...w, get, root: root.secret, alice: alice.secret }
}

/** The field names of a 200 answer's user (the first one of a list); any other answer fails. */
function keysOf(r: { status: number; json: unknown }): string[] {
  expect(r.status).toBe(200)
  const user = Array.isArray(r.json) ? (r.json as unknown[])[0] : r.json
  expect(user).toBeTypeOf('object')
  return Object.keys(user as Json)
}

const basic = (user: { id: number; username: string }, state = 'active') => ({
  id: user.id,
  username: user.username,
  public_email: null,
  name: user.username,
  state,
  locked: false,
  avatar_url: null,
  web_url: `http://gitlab.test/${user.username}`,
})

const PROFILE = {
  bio: '',
  location: '',
  linkedin: '',
  twitter: '',
  discord: '',
  website_url: '',
  github: '',
  job_title: '',
  pronouns: null,
  organization: '',
  bot: false,
  work_information: null,
}

const PUBLIC = {
  last_sign_in_at: null,
  confirmed_at: null,
  last_activity_on: null,
  email: null,
  theme_id: null,
  color_scheme_id: null,
  projects_limit: null,
  current_sign_in_at: null,
  identities: [],
  can_create_group: null,
  can_create_project: null,
  two_factor_enabled: false,
  external: false,
  private_profile: false,
  commit_email: null,
  preferred_language: null,
}

const ADMIN_FIELDS = {
  note: null,
  namespace_id: null,
  created_by: null,
  email_reset_offered_at: null,
}

describe('GitLab users_spec: GET /users', () => {
  describe('when unauthenticated', () => {
    it('returns authorization error when the `username` parameter is not passed', async () => {
      const { get } = await users()
      const r = await get('/users')
      expect(r.status).toBe(403)
      expect(r.text).toBe('{"message":"403 Forbidden - Not authorized to access /api/v4/users"}')
    })

    it('returns the user when a valid `username` parameter is passed', async () => {
      const { get } = await users()
      const r = await get('/users?username=alice')
      expect(r.status).toBe(200)
      expect(r.json).toEqual([basic(ALICE)])
      expect(keysOf(r)).toEqual(Object.keys(basic(ALICE)))
    })

    it('returns the user when a valid `username` parameter is passed (case insensitive)', async () => {
      const { get } = await users()
      const r = await get('/users?username=ALICE')
      expect(r.status).toBe(200)
      expect(r.json).toEqual([basic(ALICE)])
    })

    it('returns an empty response when an invalid `username` parameter is passed', async () => {
      const { get } = await users()
      const r = await get('/users?username=invalid')
      expect(r.status).toBe(200)
      expect(r.text).toBe('[]')
    })

    it('does not return the highest role', async () => {
      const { get } = await users()
      const r = await get('/users?username=alice')
      expect(keysOf(r)).not.toContain('highest_role')
    })

    it('does not return the current or last sign-in ip addresses', async () => {
      const { get } = await users()
      const keys = keysOf(await get('/users?username=alice'))
      expect(keys).not.toContain('current_sign_in_ip')
      expect(keys).not.toContain('last_sign_in_ip')
    })
  })

  describe('when authenticated', () => {
    // GitLab's `it` lists every user; patkit's directory finds users by username only, so this port
    // asks for one (docs/conformance.md).
    it('returns an array of users', async () => {
      const { get, alice } = await users()
      const r = await get('/users?username=alice', alice)
      expect(r.status).toBe(200)
      expect(r.json).toEqual([basic(ALICE)])
      expect(r.headers.get('x-total')).toBe('1')
      expect(r.headers.get('x-page')).toBe('1')
      expect(r.headers.get('x-per-page')).toBe('20')
      expect(r.headers.get('link')).toContain('rel="first"')
    })

    it('returns one user', async () => {
      const { get, alice } = await users()
      const r = await get('/users?username=bob', alice)
      expect(r.status).toBe(200)
      expect((r.json as Json[])[0]?.['username']).toBe('bob')
      expect(r.headers.get('x-total-pages')).toBe('1')
    })

    it('returns one user (case insensitive)', async () => {
      const { get, alice } = await users()
      const r = await get('/users?username=BoB', alice)
      expect(r.status).toBe(200)
      expect((r.json as Json[])[0]?.['username']).toBe('bob')
    })

    it('returns a 403 when non-admin user searches by external UID', async () => {
      const { get, alice } = await users()
      const r = await get('/users?extern_uid=1234&provider=github', alice)
      expect(r.status).toBe(403)
      expect(r.text).toBe('{"message":"403 Forbidden"}')
    })

    it('does not reveal the `is_admin` flag of the user', async () => {
      const { get, alice } = await users()
      const r = await get('/users?username=root', alice)
      expect(r.json).toEqual([basic(ADMIN)])
      expect(keysOf(r)).not.toContain('is_admin')
    })
  })

  describe('when admin', () => {
    describe('when sudo is defined', () => {
      it('does not return 500', async () => {
        const w = await users()
        const sudoToken = await w.issue(ADMIN.id, { scopes: ['sudo'] })
        const r = await w.get(`/users?sudo=${ALICE.id}&username=alice`, sudoToken.secret)
        expect(r.status).toBe(200)
      })
    })

    it('returns an array of users', async () => {
      const { get, root } = await users()
      const r = await get('/users?username=alice', root)
      expect(r.status).toBe(200)
      expect(r.json).toEqual([
        {
          ...basic(ALICE),
          created_at: null,
          ...PROFILE,
          followers: 0,
          following: 0,
          is_followed: false,
          local_time: null,
          ...PUBLIC,
          is_admin: false,
          ...ADMIN_FIELDS,
        },
      ])
      expect(r.headers.get('x-total')).toBe('1')
    })

    it('returns 400 error if provider with no extern_uid (extern_uid only)', async () => {
      const { get, root } = await users()
      const r = await get('/users?extern_uid=1234', root)
      expect(r.status).toBe(400)
      expect(r.text).toBe('{"error":"extern_uid, provider provide all or none of parameters"}')
    })

    it('returns 400 error if provider with no extern_uid (provider only)', async () => {
      const { get, root } = await users()
      const r = await get('/users?provider=github', root)
      expect(r.status).toBe(400)
      expect(r.text).toBe('{"error":"extern_uid, provider provide all or none of parameters"}')
    })

    it('returns 400 when provided incorrect sort params', async () => {
      const { get, root } = await users()
      const r = await get('/users?order_by=magic&sort=asc', root)
      expect(r.status).toBe(400)
      expect(r.text).toBe('{"error":"order_by does not have a valid value"}')
    })
  })

  describe('admin notes', () => {
    const HIDDEN = ['note', 'namespace_id', 'created_by', 'email_reset_offered_at']

    it('does not contain certain fields (when unauthenticated)', async () => {
      const { get } = await users()
      const keys = keysOf(await get('/users?username=alice'))
      for (const key of HIDDEN) expect(keys).not.toContain(key)
    })

    it('does not contain certain fields (as a regular user)', async () => {
      const { get, alice } = await users()
      const keys = keysOf(await get('/users?username=alice', alice))
      for (const key of HIDDEN) expect(keys).not.toContain(key)
    })

    // GitLab's note is the admin's text about the user; patkit keeps none, so it is null.
    it('contains the note of users', async () => {
      const { get, root } = await users()
      const r = await get('/users?username=alice', root)
      expect(r.status).toBe(200)
      expect((r.json as Json[])[0]).toHaveProperty('note', null)
      expect((r.json as Json[])[0]).toHaveProperty('email_reset_offered_at', null)
    })

    it('has created_by as nil with a self-registered account', async () => {
      const { get, root } = await users()
      const r = await get('/users?username=alice', root)
      expect((r.json as Json[])[0]).toHaveProperty('created_by', null)
    })
  })
})

describe('GitLab users_spec: GET /users/:id', () => {
  it('returns a user by id', async () => {
    const { get, alice } = await users()
    const r = await get(`/users/${ALICE.id}`, alice)
    expect(r.status).toBe(200)
    expect(r.json).toEqual({
      ...basic(ALICE),
      created_at: null,
      ...PROFILE,
      followers: 0,
      following: 0,
      is_followed: false,
      local_time: null,
    })
    expect(Object.keys(r.json as Json)).toEqual([
      ...Object.keys(basic(ALICE)),
      'created_at',
      ...Object.keys(PROFILE),
      'followers',
      'following',
      'is_followed',
      'local_time',
    ])
  })

  it("does not return the user's `is_admin` flag", async () => {
    const { get, alice } = await users()
    expect(keysOf(await get(`/users/${ADMIN.id}`, alice))).not.toContain('is_admin')
  })

  it("does not return the user's `highest_role`", async () => {
    const { get, alice } = await users()
    expect(keysOf(await get(`/users/${ALICE.id}`, alice))).not.toContain('highest_role')
  })

  it("does not return the user's sign in IPs", async () => {
    const { get, alice } = await users()
    const keys = keysOf(await get(`/users/${ALICE.id}`, alice))
    expect(keys).not.toContain('current_sign_in_ip')
    expect(keys).not.toContain('last_sign_in_ip')
  })

  it('does not contain plan or trial data', async () => {
    const { get, alice } = await users()
    const keys = keysOf(await get(`/users/${ALICE.id}`, alice))
    expect(keys).not.toContain('plan')
    expect(keys).not.toContain('trial')
  })

  it('returns the `created_at` field for public users', async () => {
    const { get, alice } = await users()
    expect(keysOf(await get(`/users/${BOB.id}`, alice))).toContain('created_at')
  })

  it('returns the `followers` field for public users', async () => {
    const { get, alice } = await users()
    expect((await get(`/users/${BOB.id}`, alice)).json).toHaveProperty('followers', 0)
  })

  it('returns the `following` field for public users', async () => {
    const { get, alice } = await users()
    expect((await get(`/users/${BOB.id}`, alice)).json).toHaveProperty('following', 0)
  })

  it('does not contain the note of the user', async () => {
    const { get, alice } = await users()
    const keys = keysOf(await get(`/users/${ALICE.id}`, alice))
    expect(keys).not.toContain('note')
    expect(keys).not.toContain('sign_in_count')
  })

  describe('when authenticated as admin', () => {
    it('contains the note of the user', async () => {
      const { get, root } = await users()
      const r = await get(`/users/${ALICE.id}`, root)
      expect(r.json).toHaveProperty('note', null)
      expect(r.json).toHaveProperty('sign_in_count', 0)
    })

    it('includes the `is_admin` field', async () => {
      const { get, root } = await users()
      const r = await get(`/users/${ALICE.id}`, root)
      expect(r.status).toBe(200)
      expect(r.json).toEqual({
        ...basic(ALICE),
        created_at: null,
        ...PROFILE,
        followers: 0,
        following: 0,
        is_followed: false,
        local_time: null,
        ...PUBLIC,
        is_admin: false,
        ...ADMIN_FIELDS,
        highest_role: 0,
        current_sign_in_ip: null,
        last_sign_in_ip: null,
        sign_in_count: 0,
      })
    })

    it('includes the `highest_role` field', async () => {
      const { get, root } = await users()
      expect((await get(`/users/${ALICE.id}`, root)).json).toHaveProperty('highest_role', 0)
    })

    it('does not include plan or trial data', async () => {
      const { get, root } = await users()
      const keys = keysOf(await get(`/users/${ALICE.id}`, root))
      expect(keys).not.toContain('plan')
      expect(keys).not.toContain('trial')
    })

    it('does not include the sign in IPs (when user has not logged in)', async () => {
      const { get, root } = await users()
      const r = await get(`/users/${ALICE.id}`, root)
      expect(r.json).toMatchObject({ current_sign_in_ip: null, last_sign_in_ip: null })
    })
  })

  describe('for an anonymous user', () => {
    it('returns 403', async () => {
      const { get } = await users()
      const r = await get(`/users/${ALICE.id}`)
      expect(r.status).toBe(403)
      expect(r.text).toBe('{"message":"403 Forbidden - Not authorized!"}')
    })
  })

  it('returns a 404 error if user id not found', async () => {
    const { get, alice } = await users()
    const r = await get('/users/9999', alice)
    expect(r.status).toBe(404)
    expect(r.text).toBe('{"message":"404 User Not Found"}')
  })

  it('returns a 404 for invalid ID', async () => {
    const { get, alice } = await users()
    const r = await get('/users/1ASDF', alice)
    expect(r.status).toBe(404)
    expect(r.text).toBe('{"error":"404 Not Found"}')
  })
})

describe('GitLab users_spec: GET /user', () => {
  describe('with regular user', () => {
    it('returns current user without private token when sudo not defined', async () => {
      const { get, alice } = await users()
      const r = await get('/user', alice)
      expect(r.status).toBe(200)
      expect(r.json).toEqual({
        ...basic(ALICE),
        created_at: null,
        ...PROFILE,
        followers: 0,
        following: 0,
        is_followed: false,
        local_time: null,
        ...PUBLIC,
      })
      expect((r.json as Json)['id']).toBe(ALICE.id)
    })

    // GitLab's shared examples 'allows the "read_user" scope', personal access token part.
    describe('scopes: when the requesting token has the "api" scope', () => {
      it('returns a "200" response on get request', async () => {
        const { get, alice } = await users({ scopes: ['api'] })
        expect((await get('/user', alice)).status).toBe(200)
      })

      it('returns a "200" response on head request', async () => {
        const { get, alice } = await users({ scopes: ['api'] })
        const r = await get('/user', alice, 'HEAD')
        expect(r.status).toBe(200)
        expect(r.text).toBe('')
      })
    })

    describe('scopes: when the requesting token has the "read_user" scope', () => {
      it('returns a "200" response on get request', async () => {
        const { get, alice } = await users({ scopes: ['read_user'] })
        expect((await get('/user', alice)).status).toBe(200)
      })

      it('returns a "200" response on head request', async () => {
        const { get, alice } = await users({ scopes: ['read_user'] })
        expect((await get('/user', alice, 'HEAD')).status).toBe(200)
      })
    })

    describe('scopes: when the requesting token does not have any required scope', () => {
      it('returns a "403" response', async () => {
        const { get, alice } = await users({ scopes: ['read_registry'] })
        const r = await get('/user', alice)
        expect(r.status).toBe(403)
        expect(r.text).toBe(
          '{"error":"insufficient_scope","error_description":"The request requires higher privileges than provided by the access token.","scope":"api read_api read_user"}',
        )
      })
    })
  })

  describe('with admin', () => {
    describe('with personal access token', () => {
      it('returns 403 without private token when sudo is defined', async () => {
        const { call, root } = await users()
        const r = await call('GET', api(`/user?private_token=${root}&sudo=123`))
        expect(r.status).toBe(403)
        // The token has no `sudo` scope: GitLab's insufficient_scope answer naming it.
        expect(r.json).toMatchObject({ error: 'insufficient_scope', scope: 'sudo' })
      })
    })

    it('returns initial current user without private token but with is_admin when sudo not defined', async () => {
      const { call, root } = await users()
      const r = await call('GET', api(`/user?private_token=${root}`))
      expect(r.status).toBe(200)
      expect(r.json).toEqual({
        ...basic(ADMIN),
        created_at: null,
        ...PROFILE,
        followers: 0,
        following: 0,
        is_followed: false,
        local_time: null,
        ...PUBLIC,
        is_admin: true,
        ...ADMIN_FIELDS,
      })
    })
  })

  describe('with unauthenticated user', () => {
    it('returns 401 error if user is unauthenticated', async () => {
      const { get } = await users()
      const r = await get('/user')
      expect(r.status).toBe(401)
      expect(r.text).toBe('{"message":"401 Unauthorized"}')
    })
  })

  describe('admin notes', () => {
    it('contains the note of the user (as an admin accessing their own profile)', async () => {
      const { get, root } = await users()
      expect((await get('/user', root)).json).toHaveProperty('note', null)
    })

    it('does not contain the note of the user (as a regular user)', async () => {
      const { get, alice } = await users()
      const keys = keysOf(await get('/user', alice))
      expect(keys).not.toContain('note')
      expect(keys).not.toContain('namespace_id')
    })

    describe('with sudo', () => {
      it('contains the note of the user (an admin accessing their own profile)', async () => {
        const { get, root } = await users({ scopes: ['api', 'sudo'] })
        const r = await get(`/user?sudo=${ADMIN.id}`, root)
        expect(r.json).toMatchObject({ id: ADMIN.id })
        expect(r.json).toHaveProperty('note', null)
      })

      it('does not contain the note of the user (accessing the profile of another regular user)', async () => {
        const { get, root } = await users({ scopes: ['api', 'sudo'] })
        const r = await get(`/user?sudo=${ALICE.id}`, root)
        expect(r.json).toMatchObject({ id: ALICE.id })
        expect(keysOf(r)).not.toContain('note')
      })
    })
  })
})

describe('users API: patkit decisions where GitLab depends on data patkit has not', () => {
  it('a blocked user is hidden from GET /users for anyone but an administrator', async () => {
    const { get, alice, root } = await users()
    expect((await get('/users?username=mallory')).text).toBe('[]')
    expect((await get('/users?username=mallory', alice)).text).toBe('[]')
    const r = await get('/users?username=mallory&blocked=true', root)
    expect((r.json as Json[])[0]).toMatchObject({ id: BLOCKED.id, state: 'blocked' })
  })

  it('GET /users/:id shows a blocked user, without created_at and follow counts to non-admins', async () => {
    const { get, alice, root } = await users()
    const seen = (await get(`/users/${BLOCKED.id}`, alice)).json as Json
    expect(seen).toMatchObject({ id: BLOCKED.id, state: 'blocked' })
    for (const key of ['created_at', 'followers', 'following', 'is_followed'])
      expect(seen).not.toHaveProperty(key)
    expect((await get(`/users/${BLOCKED.id}`, root)).json).toHaveProperty('followers', 0)
  })

  it('GET /users filters patkit can evaluate: active, blocked, external, admins (administrators only)', async () => {
    const { get, alice, root } = await users()
    const count = async (query: string, secret: string) =>
      ((await get(`/users?${query}`, secret)).json as Json[]).length
    expect(await count('username=alice&active=true', alice)).toBe(1)
    expect(await count('username=alice&blocked=true', alice)).toBe(0)
    expect(await count('username=alice&external=true', alice)).toBe(0)
    expect(await count('username=alice&active=false', alice)).toBe(1)
    // `admins` filters only for an administrator; GitLab ignores it for anyone else.
    expect(await count('username=alice&admins=true', alice)).toBe(1)
    expect(await count('username=alice&admins=true', root)).toBe(0)
    expect(await count('username=root&admins=true', root)).toBe(1)
    const bad = await get('/users?username=alice&active=maybe', alice)
    expect(bad.status).toBe(400)
    expect(bad.text).toBe('{"error":"active is invalid"}')
  })

  it('an authenticated GET /users without username is refused: patkit lists no users', async () => {
    const { get, alice, root } = await users()
    const r = await get('/users', alice)
    expect(r.status).toBe(400)
    expect(r.text).toBe('{"error":"username is missing"}')
    // The identity lookup needs no username: no user of patkit has an external identity.
    expect((await get('/users?extern_uid=1&provider=github', root)).text).toBe('[]')
    expect((await get('/users?extern_uid=1&provider=github')).status).toBe(401)
  })

  it('read_user, read_api and api tokens may read /users and /users/:id; others get 403', async () => {
    for (const scope of ['api', 'read_api', 'read_user'] as const) {
      const { get, alice } = await users({ scopes: [scope] })
      expect((await get(`/users/${BOB.id}`, alice)).status, scope).toBe(200)
      expect((await get('/users?username=bob', alice)).status, scope).toBe(200)
    }
    const { get, alice } = await users({ scopes: ['read_repository'] })
    expect((await get(`/users/${BOB.id}`, alice)).status).toBe(403)
    expect((await get('/users?username=bob', alice)).status).toBe(403)
  })

  it('a presented but unknown token is 401 even where anonymous callers are served', async () => {
    const { get } = await users()
    expect((await get('/users?username=alice', 'glpat-unknown')).status).toBe(401)
    expect((await get(`/users/${ALICE.id}`, 'glpat-unknown')).status).toBe(401)
  })

  it('web_url is built from publicUrl (with its path) when one is set, else the request origin', async () => {
    const w = await httpWorld({}, { publicUrl: 'https://gitlab.example.com/git/' })
    const { secret } = await w.issue(ALICE.id)
    const r = await w.call('GET', api('/user'), { token: secret })
    expect((r.json as Json)['web_url']).toBe('https://gitlab.example.com/git/alice')
  })

  it('other methods on the users routes are 405 with Allow', async () => {
    const { call, alice } = await users()
    const r = await call('POST', api('/users'), { token: alice })
    expect(r.status).toBe(405)
    expect(r.headers.get('allow')).toBe('GET, HEAD')
  })
})
