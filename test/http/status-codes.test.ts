import { describe, expect, it } from 'vitest'
import { ADMIN, ALICE, BOB } from '../support/authority-fixtures.js'
import { httpWorld } from '../support/http-fixtures.js'

describe('spec 7: status codes over HTTP', () => {
  it('400: rotating a revoked token', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    const old = await issue(ALICE.id, { revoked: true })
    const r = await call('POST', `/personal_access_tokens/${old.token.id}/rotate`, { token: me.secret })
    expect(r.status).toBe(400)
    expect(r.text).toBe('{"message":"400 Bad request - Token already revoked"}')
    expect(r.headers.get('content-type')).toBe('application/json')
  })

  it('400: revocation did not succeed (a non-admin revoking a foreign token)', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    const bobs = await issue(BOB.id)
    const r = await call('DELETE', `/personal_access_tokens/${bobs.token.id}`, { token: me.secret })
    expect(r.status).toBe(400)
    expect(r.text).toBe('{"message":"400 Bad request"}')
  })

  it('401: GET by id of a foreign or missing token for a non-admin', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    const bobs = await issue(BOB.id)
    for (const id of [bobs.token.id, 999]) {
      const r = await call('GET', `/personal_access_tokens/${id}`, { token: me.secret })
      expect(r.status).toBe(401)
      expect(r.text).toBe('{"message":"401 Unauthorized"}')
    }
  })

  it('401: rotate by id of a foreign or missing token for a non-admin', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    const bobs = await issue(BOB.id)
    for (const id of [bobs.token.id, 999]) {
      const r = await call('POST', `/personal_access_tokens/${id}/rotate`, { token: me.secret })
      expect(r.status).toBe(401)
      expect(r.text).toBe('{"message":"401 Unauthorized"}')
    }
  })

  it('401: list with a non-admin naming another user_id', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    const r = await call('GET', `/personal_access_tokens?user_id=${BOB.id}`, { token: me.secret })
    expect(r.status).toBe(401)
    expect(r.text).toBe('{"message":"401 Unauthorized"}')
  })

  it('401: rotate self with a token that does not exist, has expired or has been revoked', async () => {
    const { call, issue } = await httpWorld()
    const expired = await issue(ALICE.id, { expiresAt: '2026-03-01' })
    const revoked = await issue(ALICE.id, { revoked: true })
    const unknown = await call('POST', '/personal_access_tokens/self/rotate', { token: 'glpat-unknown' })
    expect(unknown.status).toBe(401)
    expect(unknown.text).toBe('{"message":"401 Unauthorized"}')
    const e = await call('POST', '/personal_access_tokens/self/rotate', { token: expired.secret })
    expect(e.status).toBe(401)
    expect(e.text).toBe(
      '{"error":"invalid_token","error_description":"Token is expired. You can either do re-authorization or token refresh."}',
    )
    expect(e.headers.get('www-authenticate')).toBe(
      'Bearer realm="Protected by OAuth 2.0", error="invalid_token", error_description="Token is expired. You can either do re-authorization or token refresh."',
    )
    const r = await call('POST', '/personal_access_tokens/self/rotate', { token: revoked.secret })
    expect(r.status).toBe(401)
    expect(r.text).toBe(
      '{"error":"invalid_token","error_description":"Token was revoked. You have to re-authorize from the user."}',
    )
    expect(r.headers.get('www-authenticate')).toContain('error="invalid_token"')
  })

  it('401: rotating with a revoked token of a family fails and revokes the family active token', async () => {
    const { call, issue, store } = await httpWorld()
    const first = await issue(ALICE.id)
    const rotated = await call('POST', '/personal_access_tokens/self/rotate', { token: first.secret })
    expect(rotated.status).toBe(200)
    const next = rotated.json as { id: number; token: string }
    const reuse = await call('POST', `/personal_access_tokens/${next.id}/rotate`, { token: first.secret })
    expect(reuse.status).toBe(401)
    expect((await store.findById(next.id))._unsafeUnwrap()?.revoked).toBe(true)
    expect((await call('GET', '/personal_access_tokens/self', { token: next.token })).status).toBe(401)
  })

  it('403: rotate self with a token not allowed to rotate itself', async () => {
    const { call, issue } = await httpWorld()
    const reader = await issue(ALICE.id, { scopes: ['read_api'] })
    const r = await call('POST', '/personal_access_tokens/self/rotate', { token: reader.secret })
    expect(r.status).toBe(403)
    expect(r.text).toBe(
      '{"error":"insufficient_scope","error_description":"The request requires higher privileges than provided by the access token.","scope":"api self_rotate"}',
    )
  })

  it('404: GET by id or rotate by id of a missing token for an admin', async () => {
    const { call, issue } = await httpWorld()
    const admin = await issue(ADMIN.id)
    for (const [method, path] of [
      ['GET', '/personal_access_tokens/999'],
      ['POST', '/personal_access_tokens/999/rotate'],
    ] as const) {
      const r = await call(method, path, { token: admin.secret })
      expect(r.status).toBe(404)
      expect(r.text).toBe('{"message":"404 Not Found"}')
    }
  })

  it('405: a known path with a wrong method answers 405 with Allow (only PATs exist, so the not-a-PAT 405 cannot arise)', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    const r = await call('PUT', '/personal_access_tokens/self', { token: me.secret })
    expect(r.status).toBe(405)
    expect(r.text).toBe('{"error":"405 Method Not Allowed"}')
    expect(r.headers.get('allow')).toBe('GET, HEAD, DELETE')
  })
})
