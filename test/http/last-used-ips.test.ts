import { describe, expect, it } from 'vitest'
import { listenNode } from '../../src/fake/listen.js'
import { seedTokenSchema } from '../../src/fake/seed/seed-schema.js'
import { createNodeListener } from '../../src/node/index.js'
import { ADMIN, ALICE } from '../support/authority-fixtures.js'
import { httpWorld } from '../support/http-fixtures.js'

// last_used_ips as GitLab's PersonalAccessTokens::LastUsedService records them (10-minute timestamp
// throttle, a new IP at most once a minute, the newest five) and as GitLab's entities show them,
// each route from the release that shows them there.

type Json = Record<string, unknown>
const MINUTE = 60_000
const forwarded = {
  clientIp: ({ headers }: { headers: { get(name: string): string | null } }) => headers.get('x-client'),
}

describe('recording the client address', () => {
  it('createNodeListener records the socket address; X-Forwarded-For is not read by default', async () => {
    const w = await httpWorld()
    const { secret } = await w.issue(ALICE.id)
    const server = await listenNode(createNodeListener(w.authority), { host: '127.0.0.1', port: 0 })
    try {
      const r = await fetch(`${server.url}/api/v4/personal_access_tokens/self`, {
        headers: { 'PRIVATE-TOKEN': secret, 'X-Forwarded-For': '198.51.100.1' },
      })
      expect(((await r.json()) as Json)['last_used_ips']).toEqual(['127.0.0.1'])
    } finally {
      await server.close()
    }
  })

  it('createHandler records nothing without a clientIp option: a web Request has no socket', async () => {
    const w = await httpWorld()
    const { secret } = await w.issue(ALICE.id)
    const r = await w.call('GET', '/personal_access_tokens/self', { token: secret })
    expect((r.json as Json)['last_used_ips']).toEqual([])
    expect((r.json as Json)['last_used_at']).toBe('2026-03-10T12:00:00.000Z')
  })

  it('a new address is recorded a minute after the last use, inside the 10-minute window, without moving last_used_at', async () => {
    const w = await httpWorld({}, forwarded)
    const { secret, token } = await w.issue(ALICE.id)
    const use = (ip: string) =>
      w.call('GET', `/personal_access_tokens/${token.id}`, { token: secret, headers: { 'x-client': ip } })
    expect(((await use('10.0.0.1')).json as Json)['last_used_ips']).toEqual(['10.0.0.1'])
    w.clock.advance(MINUTE - 1)
    // Less than a minute later: the new address is not recorded.
    expect(((await use('10.0.0.2')).json as Json)['last_used_ips']).toEqual(['10.0.0.1'])
    w.clock.advance(1)
    const later = (await use('10.0.0.2')).json as Json
    expect(later['last_used_ips']).toEqual(['10.0.0.1', '10.0.0.2'])
    expect(later['last_used_at']).toBe('2026-03-10T12:00:00.000Z')
    // A known address is never recorded twice; ten minutes on, last_used_at moves.
    w.clock.advance(9 * MINUTE)
    const moved = (await use('10.0.0.1')).json as Json
    expect(moved['last_used_ips']).toEqual(['10.0.0.1', '10.0.0.2'])
    expect(moved['last_used_at']).toBe('2026-03-10T12:10:00.000Z')
  })

  it('keeps the five newest addresses, oldest first; IPv4-mapped IPv6 is written as IPv4', async () => {
    const w = await httpWorld({}, forwarded)
    const { secret } = await w.issue(ALICE.id)
    let last: Json = {}
    for (const ip of ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4', '::ffff:10.0.0.5', '2001:db8::6']) {
      const r = await w.call('GET', '/personal_access_tokens/self', {
        token: secret,
        headers: { 'x-client': ip },
      })
      last = r.json as Json
      w.clock.advance(MINUTE)
    }
    expect(last['last_used_ips']).toEqual(['10.0.0.2', '10.0.0.3', '10.0.0.4', '10.0.0.5', '2001:db8::6'])
  })

  it('users API and metadata requests are uses too', async () => {
    const w = await httpWorld({}, forwarded)
    const { secret } = await w.issue(ALICE.id)
    await w.call('GET', '/api/v4/user', { token: secret, headers: { 'x-client': '192.0.2.9' } })
    const r = await w.call('GET', '/personal_access_tokens/self', { token: secret })
    expect((r.json as Json)['last_used_ips']).toEqual(['192.0.2.9'])
  })
})

describe('last_used_ips in the entities, by release', () => {
  async function seen(release: `${number}.${number}`) {
    const w = await httpWorld({ release }, forwarded)
    const root = await w.issue(ADMIN.id)
    const alice = await w.issue(ALICE.id, {
      lastUsedIps: ['203.0.113.1'],
      lastUsedAt: new Date('2026-03-10T11:00:00.000Z'),
    })
    const imp = await w.issue(ALICE.id, { impersonation: true, lastUsedIps: ['203.0.113.2'] })
    const has = (body: unknown) => Object.hasOwn(body as Json, 'last_used_ips')
    const byId = await w.call('GET', `/personal_access_tokens/${alice.token.id}`, { token: root.secret })
    const self = await w.call('GET', '/personal_access_tokens/self', { token: alice.secret })
    const list = await w.call('GET', `/personal_access_tokens?user_id=${ALICE.id}`, { token: root.secret })
    const impersonation = await w.call('GET', `/users/${ALICE.id}/impersonation_tokens/${imp.token.id}`, {
      token: root.secret,
    })
    return {
      byId: has(byId.json),
      self: has(self.json),
      list: has((list.json as unknown[])[0]),
      impersonation: has(impersonation.json),
      values: { byId: (byId.json as Json)['last_used_ips'], impersonation: impersonation.json },
    }
  }

  it('17.7 shows none', async () => {
    expect(await seen('17.7')).toMatchObject({ byId: false, self: false, list: false, impersonation: false })
  })

  it('17.8 shows them on GET /personal_access_tokens/:id only', async () => {
    const r = await seen('17.8')
    expect(r).toMatchObject({ byId: true, self: false, list: false, impersonation: false })
    expect(r.values.byId).toEqual(['203.0.113.1'])
  })

  it('18.0 adds GET /personal_access_tokens/self', async () => {
    expect(await seen('18.0')).toMatchObject({ byId: true, self: true, list: false, impersonation: false })
  })

  it('18.2 adds the list and impersonation tokens, last_used_ips before impersonation', async () => {
    const r = await seen('18.2')
    expect(r).toMatchObject({ byId: true, self: true, list: true, impersonation: true })
    const keys = Object.keys(r.values.impersonation as Json)
    expect(keys.slice(-2)).toEqual(['last_used_ips', 'impersonation'])
    expect((r.values.impersonation as Json)['last_used_ips']).toEqual(['203.0.113.2'])
  })

  it("rotate and create answers never carry last_used_ips (GitLab's PersonalAccessTokenWithToken)", async () => {
    const w = await httpWorld()
    const { secret } = await w.issue(ALICE.id)
    const r = await w.call('POST', '/personal_access_tokens/self/rotate', { token: secret })
    expect(r.status).toBe(200)
    expect(Object.hasOwn(r.json as Json, 'last_used_ips')).toBe(false)
  })
})

describe('the seed format', () => {
  it('takes last_used_ips, at most five addresses', () => {
    const base = { user_id: 2, name: 'ci', scopes: ['api'], token: 'glpat-seeded-secret' }
    const valid = (ips: readonly string[]) =>
      seedTokenSchema.safeParse({ ...base, last_used_ips: ips }).success
    expect(valid(['10.0.0.1', '::1'])).toBe(true)
    expect(valid(['1.1.1.1', '1.1.1.2', '1.1.1.3', '1.1.1.4', '1.1.1.5', '1.1.1.6'])).toBe(false)
    expect(valid(['not an ip'])).toBe(false)
  })
})

// GitLab's own `it`s about last_used_ips: spec/requests/api/personal_access_tokens_spec.rb (GET /:id,
// not an administrator) and spec/requests/api/personal_access_tokens/self_information_spec.rb (GET
// self), the request's address stubbed through Gitlab::IpAddressState there, `clientIp` here.
describe("GitLab's specs: last_used_ips", () => {
  it('returns ips used (GET /personal_access_tokens/:id, when an ip is recently used)', async () => {
    const w = await httpWorld({}, forwarded)
    const { secret, token } = await w.issue(ALICE.id, {
      lastUsedIps: ['127.0.0.1'],
      lastUsedAt: new Date('2026-03-10T11:59:30.000Z'),
    })
    const r = await w.call('GET', `/personal_access_tokens/${token.id}`, {
      token: secret,
      headers: { 'x-client': '127.0.0.1' },
    })
    expect(r.status).toBe(200)
    expect((r.json as Json)['last_used_ips']).toEqual(['127.0.0.1'])
  })

  it('returns ips used (GET /personal_access_tokens/self, when an ip is recently used)', async () => {
    const w = await httpWorld({}, forwarded)
    const { secret } = await w.issue(ALICE.id)
    const r = await w.call('GET', '/personal_access_tokens/self', {
      token: secret,
      headers: { 'x-client': '192.168.1.2' },
    })
    expect(r.status).toBe(200)
    expect((r.json as Json)['last_used_ips']).toEqual(['192.168.1.2'])
  })

  it('returns up to 5 most recent ones (GET self, when several IP have been recently used)', async () => {
    const w = await httpWorld({}, forwarded)
    const { secret } = await w.issue(ALICE.id)
    const ips = Array.from({ length: 8 }, (_, i) => `192.168.${i + 1}.2`)
    for (const [i, ip] of ips.entries()) {
      const r = await w.call('GET', '/personal_access_tokens/self', {
        token: secret,
        headers: { 'x-client': ip },
      })
      expect(r.status).toBe(200)
      expect([...((r.json as Json)['last_used_ips'] as string[])].sort()).toEqual(
        ips
          .slice(0, i + 1)
          .slice(-5)
          .sort(),
      )
      w.clock.advance(MINUTE + 10_000)
    }
  })
})
