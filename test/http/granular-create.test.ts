import { describe, expect, it } from 'vitest'
import type { Release } from '../../src/authority/core/release.js'
import { ADMIN, ALICE } from '../support/authority-fixtures.js'
import { httpWorld } from '../support/http-fixtures.js'

// Fine-grained tokens on POST /user/personal_access_tokens (facts: /tmp fine-grained-pats §1, §5, §10,
// §11.2): granular_scopes from 19.2, exactly one of scopes and granular_scopes, and the scopes shown
// on the create, list and get answers from 19.6.

async function world(release: Release = '19.6') {
  const w = await httpWorld({ release })
  const resources = w.store.resources
  if (resources === undefined) throw new Error('the memory store holds resources')
  const group = (id: number, members: { userId: number; accessLevel: 30 }[]) =>
    resources.putGroup({
      id,
      path: `g${id}`,
      fullPath: `g${id}`,
      name: `G${id}`,
      parentId: null,
      visibility: 'private',
      members,
    })
  ;(await group(5, [{ userId: ALICE.id, accessLevel: 30 }]))._unsafeUnwrap()
  ;(await group(6, []))._unsafeUnwrap()
  const me = await w.issue(ALICE.id, { name: 'ci', scopes: ['api'], expiresAt: '2026-04-01' })
  return { ...w, me }
}

const USER_SCOPE = { access: 'user', permissions: ['read_personal_access_token'] }

describe('POST /user/personal_access_tokens with granular_scopes', () => {
  it('creates a fine-grained token: granular true and its scopes on create, get and list (19.6)', async () => {
    const { call, me } = await world()
    const created = await call('POST', '/user/personal_access_tokens', {
      token: me.secret,
      body: {
        name: 'fine',
        expires_at: '2026-04-01',
        granular_scopes: [
          USER_SCOPE,
          { access: 'selected_memberships', permissions: ['read_project'], group_ids: [5] },
        ],
      },
    })
    expect(created.status).toBe(201)
    const expected = [
      { access: 'user', permissions: ['read_personal_access_token'], project_id: null, group_id: null },
      { access: 'selected_memberships', permissions: ['read_project'], project_id: null, group_id: 5 },
    ]
    const body = created.json as { id: number; token: string }
    expect(created.json).toMatchObject({ granular: true, scopes: [], granular_scopes: expected })
    const got = await call('GET', `/personal_access_tokens/${body.id}`, { token: me.secret })
    expect(got.json).toMatchObject({ granular: true, granular_scopes: expected })
    const list = await call('GET', '/personal_access_tokens', { token: me.secret })
    const rows = list.json as { id: number; granular: boolean; granular_scopes?: unknown }[]
    expect(rows.find((r) => r.id === body.id)?.granular_scopes).toEqual(expected)
    const legacy = rows.find((r) => r.id !== body.id)
    expect(legacy?.granular).toBe(false)
    expect(legacy).not.toHaveProperty('granular_scopes')
    // GET self does not show them (self_information.rb passes no with_granular_scopes).
    const self = await call('GET', '/personal_access_tokens/self', { token: body.token })
    expect(self.json).toMatchObject({ granular: true })
    expect(self.json).not.toHaveProperty('granular_scopes')
  })

  it('rotation keeps the granular scopes', async () => {
    const { call, me } = await world()
    const created = await call('POST', '/user/personal_access_tokens', {
      token: me.secret,
      body: { name: 'fine', expires_at: '2026-04-01', granular_scopes: [USER_SCOPE] },
    })
    const id = (created.json as { id: number }).id
    const rotated = await call('POST', `/personal_access_tokens/${id}/rotate`, { token: me.secret })
    expect(rotated.status).toBe(200)
    expect(rotated.json).toMatchObject({
      granular: true,
      granular_scopes: [
        { access: 'user', permissions: ['read_personal_access_token'], project_id: null, group_id: null },
      ],
    })
  })

  it('exactly one of scopes and granular_scopes (Grape exactly_one_of)', async () => {
    const { call, me } = await world()
    const both = await call('POST', '/user/personal_access_tokens', {
      token: me.secret,
      body: { name: 'x', scopes: ['k8s_proxy'], granular_scopes: [USER_SCOPE] },
    })
    expect(both.status).toBe(400)
    expect(both.json).toEqual({ error: 'scopes, granular_scopes are mutually exclusive' })
    const neither = await call('POST', '/user/personal_access_tokens', {
      token: me.secret,
      body: { name: 'x' },
    })
    expect(neither.status).toBe(400)
    expect(neither.json).toEqual({
      error: 'scopes, granular_scopes are missing, exactly one parameter must be provided',
    })
  })

  it('refuses an unknown access, an unknown or repeated permission and an empty list', async () => {
    const { call, me } = await world()
    const post = (granular_scopes: unknown) =>
      call('POST', '/user/personal_access_tokens', { token: me.secret, body: { name: 'x', granular_scopes } })
    const access = await post([{ access: 'everything', permissions: ['read_user'] }])
    expect(access.json).toEqual({ error: 'granular_scopes[0][access] does not have a valid value' })
    for (const permissions of [['api'], ['read_user', 'read_user'], []]) {
      const bad = await post([{ access: 'user', permissions }])
      // The REST rendering of these model and service errors was not found: patkit answers them as
      // its creation routes answer every model error (422, GitLab's render_api_error!).
      expect(bad.status, JSON.stringify(permissions)).toBe(422)
      expect(bad.json).toEqual({ message: 'Permissions must be a valid json schema' })
    }
    const empty = await post([])
    expect(empty.status).toBe(422)
    expect(empty.json).toEqual({ message: 'At least one granular scope must be provided' })
  })

  it('a group the caller is not a member of is 404', async () => {
    const { call, me } = await world()
    const r = await call('POST', '/user/personal_access_tokens', {
      token: me.secret,
      body: {
        name: 'x',
        granular_scopes: [{ access: 'selected_memberships', permissions: ['read_project'], group_ids: [6] }],
      },
    })
    expect(r.status).toBe(404)
  })

  it('a granular token can only create tokens with equal or lesser permissions (403)', async () => {
    const { call, me } = await world()
    const created = await call('POST', '/user/personal_access_tokens', {
      token: me.secret,
      // It may create tokens at all (the route's own permission, checked first), and read its tokens.
      body: {
        name: 'fine',
        expires_at: '2026-04-01',
        granular_scopes: [
          { access: 'user', permissions: ['read_personal_access_token', 'create_personal_access_token'] },
        ],
      },
    })
    const fine = (created.json as { token: string }).token
    const wider = await call('POST', '/user/personal_access_tokens', {
      token: fine,
      body: {
        name: 'x',
        granular_scopes: [{ access: 'user', permissions: ['read_personal_access_token', 'read_user'] }],
      },
    })
    expect(wider.status).toBe(403)
    expect(wider.json).toEqual({
      message: '403 Forbidden - A granular token can only create tokens with equal or lesser permissions.',
    })
  })

  it('before 19.2 granular_scopes is an unknown parameter; before 19.6 answers have no granular_scopes', async () => {
    const old = await world('19.1')
    const r = await old.call('POST', '/user/personal_access_tokens', {
      token: old.me.secret,
      body: { name: 'x', granular_scopes: [USER_SCOPE] },
    })
    expect(r.status).toBe(400)
    expect(r.json).toEqual({ error: 'granular_scopes is not a known parameter' })
    const mid = await world('19.5')
    const created = await mid.call('POST', '/user/personal_access_tokens', {
      token: mid.me.secret,
      body: { name: 'x', expires_at: '2026-04-01', granular_scopes: [USER_SCOPE] },
    })
    expect(created.status).toBe(201)
    expect(created.json).toMatchObject({ granular: true })
    expect(created.json).not.toHaveProperty('granular_scopes')
  })

  it('POST /users/:user_id/impersonation_tokens takes granular_scopes too and shows them (19.6)', async () => {
    const { call, issue } = await world()
    const admin = await issue(ADMIN.id, { expiresAt: null, scopes: ['api'] })
    const r = await call('POST', `/users/${ALICE.id}/impersonation_tokens`, {
      token: admin.secret,
      body: {
        name: 'i',
        expires_at: '2026-04-01',
        granular_scopes: [{ access: 'instance', permissions: ['read_metadata'] }],
      },
    })
    expect(r.status).toBe(201)
    expect(r.json).toMatchObject({
      impersonation: true,
      granular: true,
      granular_scopes: [
        { access: 'instance', permissions: ['read_metadata'], project_id: null, group_id: null },
      ],
    })
    const both = await call('POST', `/users/${ALICE.id}/impersonation_tokens`, {
      token: admin.secret,
      body: { name: 'i', scopes: ['api'], granular_scopes: [USER_SCOPE] },
    })
    expect(both.json).toEqual({ error: 'scopes, granular_scopes are mutually exclusive' })
  })
})
