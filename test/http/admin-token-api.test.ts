import { describe, expect, it } from 'vitest'
import { manualClock } from '../../src/domain/clock.js'
import { seededRandom } from '../../src/domain/random.js'
import { createHandler } from '../../src/http/index.js'
import { type AuthorityConfig, createAuthority } from '../../src/index.js'
import { memoryStore } from '../../src/memory/index.js'
import { ADMIN, ALICE, BOB, DAY, T0 } from '../support/authority-fixtures.js'

// GitLab's admin token API: lib/api/admin/token.rb (gitlabhq, index id 2075594034: POST 17.5, DELETE
// 17.7), lib/authn/agnostic_token_identifier.rb (800235cc) and lib/authn/tokens/personal_access_token.rb
// (37f03adf), and the cases of spec/requests/api/admin/token_spec.rb (034daf00) for the kinds patkit
// holds. shared/reference/gitlab-19-entities.md §2 has the quotes.

const SERVICE = { id: 9, username: 'service_account_x', admin: false, blocked: false, serviceAccount: true }

async function world(options: Partial<Omit<AuthorityConfig, 'store' | 'pepper'>> = {}) {
  const store = memoryStore({ users: [ADMIN, ALICE, BOB, SERVICE] })
  const resources = store.resources
  if (resources === undefined) throw new Error('the memory store holds resources')
  const clock = manualClock(T0)
  const authority = createAuthority({ store, pepper: 'p', clock, random: seededRandom(3), ...options })
  ;(
    await resources.putGroup({
      id: 3,
      path: 'acme',
      fullPath: 'acme',
      name: 'Acme',
      parentId: null,
      visibility: 'private',
      members: [],
    })
  )._unsafeUnwrap()
  ;(
    await resources.putProject({
      id: 7,
      path: 'api',
      fullPath: 'acme/api',
      name: 'API',
      groupId: 3,
      visibility: 'private',
      members: [],
    })
  )._unsafeUnwrap()
  const handler = createHandler(authority)
  const issue = async (userId: number, more: { scopes?: string[]; impersonation?: boolean } = {}) =>
    (
      await authority.issueToken({ userId, name: 'leaked', scopes: ['api'], expiresAt: null, ...more })
    )._unsafeUnwrap()
  const root = await issue(ADMIN.id)
  async function call(method: 'POST' | 'DELETE', body: unknown, secret: string | null = root.secret) {
    const response = await handler(
      new Request('http://gitlab.test/api/v4/admin/token', {
        method,
        headers: {
          'content-type': 'application/json',
          ...(secret === null ? {} : { 'PRIVATE-TOKEN': secret }),
        },
        body: JSON.stringify(body),
      }),
    )
    const text = await response.text()
    return { status: response.status, text, json: text === '' ? undefined : (JSON.parse(text) as unknown) }
  }
  const projectToken = async () =>
    (
      await authority.resources.issue({ resource: { type: 'project', id: 7 }, name: 'p', scopes: ['api'] })
    )._unsafeUnwrap()
  const groupToken = async () =>
    (
      await authority.resources.issue({ resource: { type: 'group', id: 3 }, name: 'g', scopes: ['api'] })
    )._unsafeUnwrap()
  return { authority, store, clock, call, issue, root, projectToken, groupToken }
}

describe('POST /admin/token (GitLab 17.5)', () => {
  it('answers the PersonalAccessToken entity of every kind patkit holds, found by its value', async () => {
    const w = await world()
    const kinds = [
      ['personal_access_token', await w.issue(ALICE.id)],
      ['impersonation_token', await w.issue(ALICE.id, { impersonation: true })],
      ['project_access_token', await w.projectToken()],
      ['group_access_token', await w.groupToken()],
      ['service_account_token', await w.issue(SERVICE.id)],
    ] as const
    for (const [kind, issued] of kinds) {
      const r = await w.call('POST', { token: issued.secret })
      expect(r.status, kind).toBe(200)
      // The spec checks `json_response['id'] == token.id`; the entity is the plain PersonalAccessToken
      // one: no `impersonation`, `access_level`, `resource_type` or `last_used_ips`.
      expect(r.json, kind).toEqual({
        id: issued.token.id,
        name: issued.token.name,
        active: true,
        revoked: false,
        expired: false,
        granular: false,
        created_at: T0.toISOString(),
        description: null,
        scopes: issued.token.scopes,
        user_id: issued.token.userId,
        last_used_at: null,
        expires_at: issued.token.expiresAt,
      })
      expect(r.text).not.toContain(issued.secret)
      const found = (await w.authority.admin.identify(issued.secret))._unsafeUnwrap()
      expect(found.kind).toBe(kind)
    }
  })

  it('finds revoked and expired tokens too (find_by_token reads by digest alone)', async () => {
    const w = await world()
    const gone = await w.issue(ALICE.id)
    ;(await w.store.revoke(gone.token.id))._unsafeUnwrap()
    const old = (
      await w.authority.issueToken({
        userId: ALICE.id,
        name: 'old',
        scopes: ['api'],
        expiresAt: '2026-03-11',
      })
    )._unsafeUnwrap()
    w.clock.advance(DAY)
    expect((await w.call('POST', { token: gone.secret })).json).toMatchObject({
      revoked: true,
      active: false,
    })
    expect((await w.call('POST', { token: old.secret })).json).toMatchObject({ expired: true, active: false })
    expect((await w.authority.admin.identify(old.secret))._unsafeUnwrap().state).toBe('expired')
  })

  it('401 without a token, 403 for a non-administrator, 403 for an administrator without Admin Mode', async () => {
    const w = await world()
    const alice = await w.issue(ALICE.id)
    expect(await w.call('POST', { token: alice.secret }, null)).toMatchObject({
      status: 401,
      text: '{"message":"401 Unauthorized"}',
    })
    expect(await w.call('POST', { token: alice.secret }, alice.secret)).toMatchObject({
      status: 403,
      text: '{"message":"403 Forbidden"}',
    })
    const m = await world({ adminMode: true })
    const plain = await m.issue(ADMIN.id)
    const withMode = await m.issue(ADMIN.id, { scopes: ['api', 'admin_mode'] })
    expect((await m.call('POST', { token: withMode.secret }, plain.secret)).status).toBe(403)
    expect((await m.call('POST', { token: withMode.secret }, withMode.secret)).status).toBe(200)
  })

  it('the administrator check comes before the parameter: 403, then 400 token is missing', async () => {
    const w = await world()
    const alice = await w.issue(ALICE.id)
    expect((await w.call('POST', {}, alice.secret)).status).toBe(403)
    expect(await w.call('POST', {})).toMatchObject({ status: 400, text: '{"error":"token is missing"}' })
  })

  it('422 Token type not supported for no known prefix; 404 nested Not found for a known prefix without a token', async () => {
    const w = await world()
    const alice = await w.issue(ALICE.id)
    expect(await w.call('POST', { token: 'unsupported' })).toMatchObject({
      status: 422,
      text: '{"message":"Token type not supported."}',
    })
    // The spec's `"#{pat.token}-non-existing"`.
    expect(await w.call('POST', { token: `${alice.secret}-non-existing` })).toMatchObject({
      status: 404,
      text: '{"message":{"error":"Not found"}}',
    })
    // Another kind of GitLab's (a deploy token's prefix): known, and patkit holds none.
    expect((await w.call('POST', { token: 'gldt-abcdefghijklmnopqrst' })).status).toBe(404)
  })

  it("the instance's token prefix and GitLab's default glpat- are both recognized", async () => {
    const w = await world({ tokenPrefix: 'acme-' })
    const alice = await w.issue(ALICE.id)
    expect(alice.secret.startsWith('acme-')).toBe(true)
    expect((await w.call('POST', { token: alice.secret })).status).toBe(200)
    expect((await w.call('POST', { token: 'glpat-unknown' })).status).toBe(404)
    expect((await w.call('POST', { token: 'other-unknown' })).status).toBe(422)
  })
})

describe('DELETE /admin/token (GitLab 17.7)', () => {
  it('revokes a personal, impersonation, project or group access token: 204, that token only', async () => {
    const w = await world()
    for (const issued of [
      await w.issue(ALICE.id),
      await w.issue(ALICE.id, { impersonation: true }),
      await w.projectToken(),
      await w.groupToken(),
    ]) {
      const other = await w.issue(BOB.id)
      const r = await w.call('DELETE', { token: issued.secret })
      expect(r).toMatchObject({ status: 204, text: '' })
      expect((await w.store.findById(issued.token.id))._unsafeUnwrap()?.revoked).toBe(true)
      expect((await w.store.findById(other.token.id))._unsafeUnwrap()?.revoked).toBe(false)
      // Revoking again: the token is found and its service succeeds again.
      expect((await w.call('DELETE', { token: issued.secret })).status).toBe(204)
    }
  })

  it("refuses a service account's token: GitLab raises UnsupportedTokenError, which its API answers 500", async () => {
    const w = await world()
    const sa = await w.issue(SERVICE.id)
    expect(await w.call('DELETE', { token: sa.secret })).toMatchObject({
      status: 500,
      text: '{"message":"500 Internal Server Error"}',
    })
    expect((await w.store.findById(sa.token.id))._unsafeUnwrap()?.revoked).toBe(false)
    const refused = await w.authority.admin.revoke(sa.secret)
    expect(refused._unsafeUnwrapErr()).toEqual({
      type: 'unsupported_revocation',
      kind: 'service_account_token',
    })
  })

  it('answers 401, 403, 400, 422 and 404 as POST does', async () => {
    const w = await world()
    const alice = await w.issue(ALICE.id)
    expect((await w.call('DELETE', { token: alice.secret }, null)).status).toBe(401)
    expect((await w.call('DELETE', { token: alice.secret }, alice.secret)).status).toBe(403)
    expect((await w.call('DELETE', {})).text).toBe('{"error":"token is missing"}')
    expect((await w.call('DELETE', { token: 'unsupported' })).status).toBe(422)
    expect((await w.call('DELETE', { token: `${alice.secret}x` })).text).toBe(
      '{"message":{"error":"Not found"}}',
    )
  })

  it('before 17.7 DELETE is no route; before 17.5 neither is POST (404 before authentication)', async () => {
    const w = await world({ release: '17.6' })
    expect((await w.call('POST', { token: 'unsupported' })).status).toBe(422)
    expect(await w.call('DELETE', { token: 'unsupported' })).toMatchObject({
      status: 404,
      text: '{"error":"404 Not Found"}',
    })
    const older = await world({ release: '17.4' })
    expect((await older.call('POST', { token: 'unsupported' })).text).toBe('{"error":"404 Not Found"}')
  })
})

describe('authority.admin: the leaked-token runbook', () => {
  it('identify says whose token it is, which kind and its state, never its secret; revoke revokes it once', async () => {
    const w = await world()
    const leaked = await w.issue(ALICE.id)
    const found = (await w.authority.admin.identify(leaked.secret))._unsafeUnwrap()
    expect(found).toMatchObject({
      kind: 'personal_access_token',
      state: 'active',
      owner: { username: 'alice' },
    })
    expect(JSON.stringify(found)).not.toContain(leaked.secret)
    expect(found.token).not.toHaveProperty('digest')
    ;(await w.authority.admin.revoke(leaked.secret, { actorUserId: ADMIN.id }))._unsafeUnwrap()
    expect((await w.authority.admin.identify(leaked.secret))._unsafeUnwrap().state).toBe('revoked')
    expect((await w.authority.admin.identify('nope'))._unsafeUnwrapErr()).toEqual({
      type: 'unsupported_token_type',
    })
  })
})
