import { describe, expect, it } from 'vitest'
import type { Release } from '../../src/authority/core/release.js'
import { ADMIN, ALICE, DAY } from '../support/authority-fixtures.js'
import { httpWorld } from '../support/http-fixtures.js'

// The token entities follow the emulated release. GitLab's newest PersonalAccessToken entity
// (gitlabhq/gitlabhq lib/api/entities/personal_access_token.rb, index id 52871404432) exposes
// `id, name, active, revoked, expired, granular, created_at, description, scopes, user_id,
// last_used_at, expires_at`; the version before (fcf155c6, id 1016311033) `id, name, revoked,
// created_at, description, scopes, user_id, last_used_at, active, expires_at`. patkit dates the
// change 18.10 (FEATURES.token_expired_granular, an estimate: shared/reference/gitlab-19-entities.md §1.1).

const NEW = ['id', 'name', 'active', 'revoked', 'expired', 'granular', 'created_at', 'description']
const OLD = ['id', 'name', 'revoked', 'created_at', 'description', 'scopes', 'user_id', 'last_used_at']

async function own(release: Release, expiresAt = '2026-03-20') {
  const w = await httpWorld({ release })
  const me = await w.issue(ALICE.id, { name: 'ci', expiresAt })
  return { ...w, me }
}

describe('token entity fields per release', () => {
  it('18.10 and later: active first, then revoked, expired and granular (false: patkit has no fine-grained tokens)', async () => {
    for (const release of ['18.10', '19.6'] as const) {
      const { call, me } = await own(release)
      const r = await call('GET', `/personal_access_tokens/${me.token.id}`, { token: me.secret })
      expect(r.status).toBe(200)
      expect(Object.keys(r.json as object).slice(0, NEW.length)).toEqual(NEW)
      expect(r.json).toMatchObject({ active: true, revoked: false, expired: false, granular: false })
    }
  })

  it('before 18.10 the entity has neither expired nor granular, and active comes after last_used_at', async () => {
    const { call, me } = await own('18.9')
    const r = await call('GET', `/personal_access_tokens/${me.token.id}`, { token: me.secret })
    const keys = Object.keys(r.json as object)
    expect(keys.slice(0, OLD.length)).toEqual(OLD)
    expect(keys).not.toContain('expired')
    expect(keys).not.toContain('granular')
  })

  it('an expired token shows expired true and active false (GitLab `expired?`: the expiry day has begun)', async () => {
    const { call, clock, me, issue } = await own('19.6', '2026-03-11')
    const admin = await issue(ADMIN.id, { expiresAt: null })
    clock.advance(DAY)
    const r = await call('GET', `/personal_access_tokens/${me.token.id}`, { token: admin.secret })
    expect(r.json).toMatchObject({ active: false, expired: true, revoked: false })
  })

  it('create, list, self and impersonation answers carry the same fields', async () => {
    const { call, me, issue } = await own('19.6')
    const created = await call('POST', `/personal_access_tokens/${me.token.id}/rotate`, { token: me.secret })
    expect(created.status).toBe(200)
    const me2 = { secret: (created.json as { token: string }).token }
    const self = await call('GET', '/personal_access_tokens/self', { token: me2.secret })
    const list = await call('GET', '/personal_access_tokens', { token: me2.secret })
    const admin = await issue(ADMIN.id, { expiresAt: null, scopes: ['api', 'sudo'] })
    const imp = await call('POST', `/users/${ALICE.id}/impersonation_tokens`, {
      token: admin.secret,
      body: { name: 'i', scopes: ['api'], expires_at: '2026-04-01' },
    })
    expect(imp.status).toBe(201)
    for (const body of [created.json, self.json, (list.json as unknown[])[0], imp.json])
      expect(Object.keys(body as object).slice(0, NEW.length)).toEqual(NEW)
  })
})
