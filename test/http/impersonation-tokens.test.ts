import { describe, expect, it } from 'vitest'
import type { IssueTokenInput } from '../../src/authority/personal/issue-token.js'
import { ADMIN, ALICE } from '../support/authority-fixtures.js'
import { httpWorld } from '../support/http-fixtures.js'

// GitLab's spec/requests/api/users_spec.rb, the impersonation token contexts
// ('GET|POST /users/:user_id/impersonation_tokens', 'GET|DELETE .../:impersonation_token_id'), one test
// per `it`, titled as in GitLab, plus the parameter and scope rules of lib/api/users.rb.

type Json = Record<string, unknown>
const NOT_EXISTING_USER_ID = 9999
const NOT_EXISTING_PAT_ID = 9999

/** root (admin) and alice with an api token each; alice also has these tokens of her own. */
async function tokens(extra: readonly Partial<IssueTokenInput>[] = []) {
  const w = await httpWorld()
  const root = (await w.issue(ADMIN.id)).secret
  const alice = (await w.issue(ALICE.id)).secret
  const made = []
  for (const fields of extra) made.push((await w.issue(ALICE.id, fields)).token)
  return { ...w, root, alice, made }
}

const standard = [
  { name: 'active pat' },
  { name: 'revoked pat', revoked: true },
  { name: 'expired pat', expiresAt: '2026-01-01' },
  { name: 'impersonation', impersonation: true },
  { name: 'revoked impersonation', impersonation: true, revoked: true },
] as const

describe('GET /users/:user_id/impersonation_tokens', () => {
  it('returns a 404 error if user not found', async () => {
    const w = await tokens(standard)
    const r = await w.call('GET', `/users/${NOT_EXISTING_USER_ID}/impersonation_tokens`, { token: w.root })
    expect(r.status).toBe(404)
    expect(r.json).toEqual({ message: '404 User Not Found' })
  })

  it('returns a 403 error when authenticated as normal user', async () => {
    const w = await tokens(standard)
    const r = await w.call('GET', `/users/${NOT_EXISTING_USER_ID}/impersonation_tokens`, { token: w.alice })
    expect(r.status).toBe(403)
    expect(r.json).toEqual({ message: '403 Forbidden' })
  })

  it('returns an array of all impersonated tokens', async () => {
    const w = await tokens(standard)
    const r = await w.call('GET', `/users/${ALICE.id}/impersonation_tokens`, { token: w.root })
    expect(r.status).toBe(200)
    expect(r.headers.get('x-total')).toBe('2')
    expect((r.json as Json[]).map((t) => t['name'])).toEqual(['impersonation', 'revoked impersonation'])
    expect(r.json).toEqual([
      expect.objectContaining({ impersonation: true, active: true }),
      expect.objectContaining({ impersonation: true, active: false, revoked: true }),
    ])
  })

  it('returns an array of active impersonation tokens if state active', async () => {
    const w = await tokens(standard)
    const r = await w.call('GET', `/users/${ALICE.id}/impersonation_tokens?state=active`, { token: w.root })
    expect(r.status).toBe(200)
    expect(r.headers.get('x-page')).toBe('1')
    expect((r.json as Json[]).map((t) => [t['name'], t['active']])).toEqual([['impersonation', true]])
  })

  it('returns an array of inactive personal access tokens if active is set to false', async () => {
    const w = await tokens(standard)
    const r = await w.call('GET', `/users/${ALICE.id}/impersonation_tokens?state=inactive`, { token: w.root })
    expect(r.status).toBe(200)
    expect((r.json as Json[]).map((t) => [t['name'], t['active']])).toEqual([
      ['revoked impersonation', false],
    ])
  })

  it('state=all is the default; any other state is a Grape 400 for an admin', async () => {
    const w = await tokens(standard)
    const all = await w.call('GET', `/users/${ALICE.id}/impersonation_tokens?state=all`, { token: w.root })
    expect((all.json as Json[]).length).toBe(2)
    const bad = await w.call('GET', `/users/${ALICE.id}/impersonation_tokens?state=revoked`, {
      token: w.root,
    })
    expect(bad.status).toBe(400)
    expect(bad.json).toEqual({ error: 'state does not have a valid value' })
  })

  it('paginates with per_page and page', async () => {
    const w = await tokens([
      { name: 'i1', impersonation: true },
      { name: 'i2', impersonation: true },
      { name: 'i3', impersonation: true },
    ])
    const r = await w.call('GET', `/users/${ALICE.id}/impersonation_tokens?per_page=2&page=2`, {
      token: w.root,
    })
    expect((r.json as Json[]).map((t) => t['name'])).toEqual(['i3'])
    expect(r.headers.get('x-total')).toBe('3')
    expect(r.headers.get('x-total-pages')).toBe('2')
  })

  it('a non-integer user_id is 400 for an admin and 403 for anyone else', async () => {
    const w = await tokens()
    const admin = await w.call('GET', '/users/alice/impersonation_tokens', { token: w.root })
    expect(admin.status).toBe(400)
    expect(admin.json).toEqual({ error: 'user_id is invalid' })
    const user = await w.call('GET', '/users/alice/impersonation_tokens', { token: w.alice })
    expect(user.status).toBe(403)
    expect(user.json).toEqual({ message: '403 Forbidden' })
  })

  it('impersonation tokens never appear in a non-admin list but do in an admin list', async () => {
    const w = await tokens(standard)
    const own = await w.call('GET', '/personal_access_tokens', { token: w.alice })
    expect((own.json as Json[]).map((t) => t['name'])).not.toContain('impersonation')
    const admin = await w.call('GET', `/personal_access_tokens?user_id=${ALICE.id}`, { token: w.root })
    expect((admin.json as Json[]).map((t) => t['name'])).toContain('impersonation')
  })
})

describe('POST /users/:user_id/impersonation_tokens', () => {
  const body = {
    name: 'my new pat',
    expires_at: '2026-12-28',
    scopes: ['api', 'read_user'],
    impersonation: true,
  }

  it('returns validation error if impersonation token misses some attributes', async () => {
    const w = await tokens()
    const r = await w.call('POST', `/users/${ALICE.id}/impersonation_tokens`, { token: w.root })
    expect(r.status).toBe(400)
    expect(r.json).toEqual({ error: 'name is missing' })
  })

  it('returns a 404 error if user not found', async () => {
    const w = await tokens()
    const r = await w.call('POST', `/users/${NOT_EXISTING_USER_ID}/impersonation_tokens`, {
      token: w.root,
      body: { name: body.name, expires_at: body.expires_at },
    })
    expect(r.status).toBe(404)
    expect(r.json).toEqual({ message: '404 User Not Found' })
  })

  it('returns a 403 error when authenticated as normal user', async () => {
    const w = await tokens()
    const r = await w.call('POST', `/users/${ALICE.id}/impersonation_tokens`, {
      token: w.alice,
      body: { name: body.name, expires_at: body.expires_at },
    })
    expect(r.status).toBe(403)
    expect(r.json).toEqual({ message: '403 Forbidden' })
  })

  it('creates a impersonation token', async () => {
    const w = await tokens()
    const r = await w.call('POST', `/users/${ALICE.id}/impersonation_tokens`, { token: w.root, body })
    expect(r.status).toBe(201)
    const json = r.json as Json
    expect(json).toMatchObject({
      name: body.name,
      scopes: body.scopes,
      expires_at: body.expires_at,
      revoked: false,
      active: true,
      user_id: ALICE.id,
      impersonation: true,
    })
    expect(json['id']).toBeTypeOf('number')
    expect(json['created_at']).toBeTypeOf('string')
    expect(json['token']).toBeTypeOf('string')
    // The new secret authenticates as alice.
    const me = await w.call('GET', '/personal_access_tokens/self', { token: json['token'] as string })
    expect(me.json).toMatchObject({ id: json['id'], user_id: ALICE.id })
  })

  it("missing scopes fail the model's validation: 400 with the errors by attribute", async () => {
    const w = await tokens()
    const r = await w.call('POST', `/users/${ALICE.id}/impersonation_tokens`, {
      token: w.root,
      body: { name: 'no scopes' },
    })
    expect(r.status).toBe(400)
    expect(r.json).toEqual({ message: { scopes: ["can't be blank"] } })
  })

  it('an unknown scope, or an admin-only scope for a non-admin, is a validation error', async () => {
    const w = await tokens()
    for (const scopes of [['api', 'teleport'], ['sudo']]) {
      const r = await w.call('POST', `/users/${ALICE.id}/impersonation_tokens`, {
        token: w.root,
        body: { name: 'n', scopes },
      })
      expect(r.status).toBe(400)
      expect(r.json).toEqual({ message: { scopes: ['can only contain available scopes'] } })
    }
  })

  it('an expiry beyond the maximum lifetime is a validation error on expires_at', async () => {
    const w = await tokens()
    const r = await w.call('POST', `/users/${ALICE.id}/impersonation_tokens`, {
      token: w.root,
      body: { name: 'n', scopes: 'api', expires_at: '2099-01-01' },
    })
    expect(r.status).toBe(400)
    expect(r.json).toEqual({
      message: { expires_at: [expect.stringMatching(/^must be before \d{4}-\d\d-\d\d$/)] },
    })
  })

  it('a read_api token cannot create one (insufficient_scope)', async () => {
    const w = await tokens()
    const readOnly = (await w.issue(ADMIN.id, { scopes: ['read_api'] })).secret
    const r = await w.call('POST', `/users/${ALICE.id}/impersonation_tokens`, {
      token: readOnly,
      body: { name: 'n', scopes: ['api'] },
    })
    expect(r.status).toBe(403)
    expect(r.json).toMatchObject({ error: 'insufficient_scope' })
  })
})

type ByIdWorld = Awaited<ReturnType<typeof tokens>>

/**
 * The refusals GitLab's GET and DELETE `.../:impersonation_token_id` contexts share, one row per `it`
 * (GitLab titles the GET one without the article): the path to call, whose token, and the answer.
 */
const REFUSALS_BY_ID: readonly {
  readonly title: Readonly<Record<'GET' | 'DELETE', string>>
  readonly path: (w: ByIdWorld) => string
  readonly as: 'root' | 'alice'
  readonly status: number
  readonly message: string
}[] = [
  {
    title: { GET: 'returns 404 error if user not found', DELETE: 'returns a 404 error if user not found' },
    path: () => `/users/${NOT_EXISTING_USER_ID}/impersonation_tokens/1`,
    as: 'root',
    status: 404,
    message: '404 User Not Found',
  },
  {
    title: {
      GET: 'returns a 404 error if impersonation token not found',
      DELETE: 'returns a 404 error if impersonation token not found',
    },
    path: () => `/users/${ALICE.id}/impersonation_tokens/${NOT_EXISTING_PAT_ID}`,
    as: 'root',
    status: 404,
    message: '404 Impersonation Token Not Found',
  },
  {
    title: {
      GET: 'returns a 404 error if token is not impersonation token',
      DELETE: 'returns a 404 error if token is not impersonation token',
    },
    path: (w) => `/users/${ALICE.id}/impersonation_tokens/${w.made[0]?.id}`,
    as: 'root',
    status: 404,
    message: '404 Impersonation Token Not Found',
  },
  {
    title: {
      GET: "another user's impersonation token is not found under this user",
      DELETE: "another user's impersonation token is not found under this user",
    },
    path: (w) => `/users/${ADMIN.id}/impersonation_tokens/${w.made[1]?.id}`,
    as: 'root',
    status: 404,
    message: '404 Impersonation Token Not Found',
  },
  {
    title: {
      GET: 'returns a 403 error when authenticated as normal user',
      DELETE: 'returns a 403 error when authenticated as normal user',
    },
    path: (w) => `/users/${ALICE.id}/impersonation_tokens/${w.made[1]?.id}`,
    as: 'alice',
    status: 403,
    message: '403 Forbidden',
  },
]

/** alice's plain token (`made[0]`) and impersonation token (`made[1]`), with root's and alice's secrets. */
const byIdWorld = () => tokens([{ name: 'pat' }, { name: 'impersonation', impersonation: true }])

for (const method of ['GET', 'DELETE'] as const) {
  describe(`${method} /users/:user_id/impersonation_tokens/:impersonation_token_id`, () => {
    for (const refusal of REFUSALS_BY_ID) {
      it(refusal.title[method], async () => {
        const w = await byIdWorld()
        const r = await w.call(method, refusal.path(w), { token: w[refusal.as] })
        expect(r.status).toBe(refusal.status)
        expect(r.json).toEqual({ message: refusal.message })
      })
    }
  })
}

describe('GET /users/:user_id/impersonation_tokens/:impersonation_token_id', () => {
  it('returns an impersonation token', async () => {
    const w = await byIdWorld()
    const imp = w.made[1]
    const r = await w.call('GET', `/users/${ALICE.id}/impersonation_tokens/${imp?.id}`, { token: w.root })
    expect(r.status).toBe(200)
    const json = r.json as Json
    expect(json['token']).toBeUndefined()
    expect(json).toMatchObject({ id: imp?.id, name: 'impersonation', impersonation: true })
  })
})

describe('DELETE /users/:user_id/impersonation_tokens/:impersonation_token_id', () => {
  it('revokes a impersonation token', async () => {
    const w = await byIdWorld()
    const imp = w.made[1]
    const r = await w.call('DELETE', `/users/${ALICE.id}/impersonation_tokens/${imp?.id}`, { token: w.root })
    expect(r.status).toBe(204)
    expect(r.text).toBe('')
    const after = await w.call('GET', `/users/${ALICE.id}/impersonation_tokens/${imp?.id}`, { token: w.root })
    expect(after.json).toMatchObject({ revoked: true, active: false })
    // Revoking again succeeds, as GitLab's revoke! of a revoked token does.
    const again = await w.call('DELETE', `/users/${ALICE.id}/impersonation_tokens/${imp?.id}`, {
      token: w.root,
    })
    expect(again.status).toBe(204)
  })
})

// GitLab's `current_user` is the sudo'd user on every route (lib/api/helpers.rb `current_user` runs
// `sudo!`), so the impersonation routes' `before { authenticated_as_admin! }` asks whether the user
// named by `sudo` is an administrator: a non-administrator is `forbidden!`, 403 `403 Forbidden`.
describe('sudo on the impersonation token routes', () => {
  const OTHER_ADMIN = { id: 5, username: 'ops', admin: true, blocked: false } as const

  /** byIdWorld plus a second administrator and root's api + sudo token. */
  async function sudoWorld() {
    const w = await byIdWorld()
    ;(await w.authority.users.put(OTHER_ADMIN))._unsafeUnwrap()
    const sudoer = (await w.issue(ADMIN.id, { scopes: ['api', 'sudo'] })).secret
    w.events.length = 0
    return { ...w, sudoer }
  }

  /** The four routes, each with the answer an administrator gets. */
  const routes = (w: Awaited<ReturnType<typeof sudoWorld>>) =>
    [
      { method: 'GET', path: `/users/${ALICE.id}/impersonation_tokens`, ok: 200 },
      {
        method: 'POST',
        path: `/users/${ALICE.id}/impersonation_tokens`,
        body: { name: 'by sudo', scopes: ['api'] },
        ok: 201,
      },
      { method: 'GET', path: `/users/${ALICE.id}/impersonation_tokens/${w.made[1]?.id}`, ok: 200 },
      { method: 'DELETE', path: `/users/${ALICE.id}/impersonation_tokens/${w.made[1]?.id}`, ok: 204 },
    ] as const

  /** What the routes may change: alice's impersonation tokens, as the store holds them. */
  async function impersonationState(w: Awaited<ReturnType<typeof sudoWorld>>) {
    const listed = await w.store.list({
      filter: { userId: ALICE.id, impersonationOnly: true },
      sort: 'id_asc',
      page: { page: 1, perPage: 100 },
      now: w.clock.now(),
    })
    return listed._unsafeUnwrap().items.map((t) => ({ id: t.id, revoked: t.revoked }))
  }

  it('acting as a non-administrator (query, Sudo header or body) is 403 Forbidden on every route, and changes nothing', async () => {
    const w = await sudoWorld()
    const before = await impersonationState(w)
    for (const route of routes(w)) {
      const routeBody: Json = 'body' in route ? route.body : {}
      const ways: [path: string, headers: Record<string, string>, body: Json][] = [
        [`${route.path}?sudo=alice`, {}, routeBody],
        [route.path, { Sudo: String(ALICE.id) }, routeBody],
      ]
      if (route.method !== 'GET') ways.push([route.path, {}, { ...routeBody, sudo: 'alice' }])
      for (const [path, headers, body] of ways) {
        const r = await w.call(route.method, path, {
          token: w.sudoer,
          headers,
          ...(route.method === 'GET' ? {} : { body }),
        })
        expect(r.status, `${route.method} ${path} ${JSON.stringify(headers)} ${JSON.stringify(body)}`).toBe(
          403,
        )
        expect(r.json).toEqual({ message: '403 Forbidden' })
      }
    }
    expect(await impersonationState(w)).toEqual(before)
    expect(w.events.filter((e) => e.type === 'created' || e.type === 'revoked')).toEqual([])
  })

  it('acting as a non-administrator is 403 before the parameters are validated, as for alice herself', async () => {
    const w = await sudoWorld()
    const r = await w.call('GET', '/users/alice/impersonation_tokens?sudo=alice', { token: w.sudoer })
    expect(r.status).toBe(403)
    expect(r.json).toEqual({ message: '403 Forbidden' })
  })

  it('acting as another administrator works on every route, as that administrator', async () => {
    const w = await sudoWorld()
    for (const route of routes(w)) {
      const r = await w.call(route.method, `${route.path}?sudo=${OTHER_ADMIN.username}`, {
        token: w.sudoer,
        ...('body' in route ? { body: route.body } : {}),
      })
      expect(r.status, `${route.method} ${route.path}`).toBe(route.ok)
    }
    expect(w.events.filter((e) => e.type === 'created' || e.type === 'revoked')).toEqual([
      expect.objectContaining({ type: 'created', actorUserId: OTHER_ADMIN.id }),
      expect.objectContaining({ type: 'revoked', actorUserId: OTHER_ADMIN.id }),
    ])
  })

  it('the same requests without sudo act as root', async () => {
    const w = await sudoWorld()
    for (const route of routes(w)) {
      const r = await w.call(route.method, route.path, {
        token: w.sudoer,
        ...('body' in route ? { body: route.body } : {}),
      })
      expect(r.status, `${route.method} ${route.path}`).toBe(route.ok)
    }
    expect(w.events.filter((e) => e.type === 'created' || e.type === 'revoked')).toEqual([
      expect.objectContaining({ type: 'created', actorUserId: ADMIN.id }),
      expect.objectContaining({ type: 'revoked', actorUserId: ADMIN.id }),
    ])
  })
})
