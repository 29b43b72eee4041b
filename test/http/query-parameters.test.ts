import { describe, expect, it } from 'vitest'
import { ADMIN, ALICE } from '../support/authority-fixtures.js'
import { httpWorld } from '../support/http-fixtures.js'

// Issue 9, item 8: Grape reads a POST's parameters from the query and the body together (Rack's
// `GET.merge(POST)`), so on a name both give, the body wins. The world's clock is 2026-03-10.

interface TokenAnswer {
  readonly name: string
  readonly scopes: readonly string[]
  readonly description: string | null
  readonly expires_at: string | null
}

describe('query parameters on POST, merged with the body as Grape does', () => {
  it('rotate takes expires_at from the query', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    const r = await call('POST', '/personal_access_tokens/self/rotate?expires_at=2027-01-15', {
      token: me.secret,
    })
    expect(r.status).toBe(200)
    expect((r.json as TokenAnswer).expires_at).toBe('2027-01-15')
  })

  it('rotate by id too, with an empty JSON body', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    const r = await call('POST', `/personal_access_tokens/${me.token.id}/rotate?expires_at=2026-05-01`, {
      token: me.secret,
      body: {},
    })
    expect((r.json as TokenAnswer).expires_at).toBe('2026-05-01')
  })

  it('a query expires_at is validated as a body one is', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    const r = await call('POST', '/personal_access_tokens/self/rotate?expires_at=2028-01-01', {
      token: me.secret,
    })
    expect(r.status).toBe(400)
    expect(r.text).toMatch(/^\{"message":"400 Bad request - Expiration date must be/)
  })

  it('create for a user takes name, scopes[] and description from the query', async () => {
    const { call, issue } = await httpWorld()
    const root = await issue(ADMIN.id)
    const r = await call(
      'POST',
      `/users/${ALICE.id}/personal_access_tokens?name=ci&scopes[]=api&scopes[]=read_api&description=from+query`,
      { token: root.secret },
    )
    expect(r.status).toBe(201)
    expect(r.json).toMatchObject({ name: 'ci', scopes: ['api', 'read_api'], description: 'from query' })
  })

  it('create for oneself takes them from the query too, form body or none', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    const none = await call('POST', '/user/personal_access_tokens?name=k&scopes=k8s_proxy', {
      token: me.secret,
    })
    expect(none.status).toBe(201)
    expect(none.json).toMatchObject({ name: 'k', scopes: ['k8s_proxy'] })
    const form = await call('POST', '/user/personal_access_tokens?scopes[]=self_rotate', {
      token: me.secret,
      rawBody: 'name=from-form',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(form.json).toMatchObject({ name: 'from-form', scopes: ['self_rotate'] })
  })

  it('on a name both give, the body wins, whole: a body scopes replaces the query scopes[]', async () => {
    const { call, issue } = await httpWorld()
    const root = await issue(ADMIN.id)
    const r = await call(
      'POST',
      `/users/${ALICE.id}/personal_access_tokens?name=query&scopes[]=api&scopes[]=read_api&description=query`,
      { token: root.secret, body: { name: 'body', scopes: ['read_user'] } },
    )
    expect(r.status).toBe(201)
    expect(r.json).toMatchObject({ name: 'body', scopes: ['read_user'], description: 'query' })
    const rotated = await call('POST', '/personal_access_tokens/self/rotate?expires_at=2026-04-01', {
      token: root.secret,
      body: { expires_at: '2026-05-01' },
    })
    expect((rotated.json as TokenAnswer).expires_at).toBe('2026-05-01')
  })

  it('a body null still wins over the query (it is given)', async () => {
    const { call, issue } = await httpWorld()
    const root = await issue(ADMIN.id)
    const r = await call(
      'POST',
      `/users/${ALICE.id}/personal_access_tokens?name=ci&scopes=api&description=q`,
      {
        token: root.secret,
        body: { description: null },
      },
    )
    expect((r.json as TokenAnswer).description).toBeNull()
  })

  it('an unknown query parameter is ignored on POST, as on GET; an unknown body one is still refused', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    const r = await call('POST', '/personal_access_tokens/self/rotate?utf8=%E2%9C%93', { token: me.secret })
    expect(r.status).toBe(200)
    const next = (r.json as { token: string }).token
    const refused = await call('POST', '/personal_access_tokens/self/rotate', {
      token: next,
      body: { utf8: 'x' },
    })
    expect(refused.text).toBe('{"error":"utf8 is not a known parameter"}')
  })

  it('a missing name is still missing when neither gives it', async () => {
    const { call, issue } = await httpWorld()
    const root = await issue(ADMIN.id)
    const r = await call('POST', `/users/${ALICE.id}/personal_access_tokens?scopes[]=api`, {
      token: root.secret,
    })
    expect([r.status, r.text]).toEqual([400, '{"error":"name is missing"}'])
  })
})
