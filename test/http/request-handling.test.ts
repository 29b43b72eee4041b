import { describe, expect, it } from 'vitest'
import { ALICE, BOB } from '../support/authority-fixtures.js'
import { httpWorld } from '../support/http-fixtures.js'

describe('request handling', () => {
  it('an unknown route is 404 {"error":"404 Not Found"} with JSON content type', async () => {
    const { call } = await httpWorld()
    for (const path of ['/api/v4/projects', '/api/v4/personal_access_tokens/1/2/3', '/other']) {
      const r = await call('GET', path)
      expect(r.status).toBe(404)
      expect(r.text).toBe('{"error":"404 Not Found"}')
      expect(r.headers.get('content-type')).toBe('application/json')
    }
  })

  it('a custom base path mounts the API elsewhere', async () => {
    const { call, issue } = await httpWorld({}, { basePath: '/gitlab/api/v4/' })
    const me = await issue(ALICE.id)
    expect(
      (await call('GET', '/gitlab/api/v4/personal_access_tokens/self', { token: me.secret })).status,
    ).toBe(200)
    expect((await call('GET', '/api/v4/personal_access_tokens/self', { token: me.secret })).status).toBe(404)
  })

  it('an empty {} JSON body on DELETE is accepted (gitbeaker sends one)', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    const r = await call('DELETE', '/personal_access_tokens/self', { token: me.secret, body: {} })
    expect(r.status).toBe(204)
  })

  it('a form-encoded body works, scopes[] included', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    const rotate = await call('POST', '/personal_access_tokens/self/rotate', {
      token: me.secret,
      rawBody: 'expires_at=2026-04-02',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect((rotate.json as { expires_at: string }).expires_at).toBe('2026-04-02')
    const next = (rotate.json as { token: string }).token
    const created = await call('POST', '/user/personal_access_tokens', {
      token: next,
      rawBody: 'name=k&scopes[]=k8s_proxy&scopes[]=self_rotate',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(created.status).toBe(201)
    expect((created.json as { scopes: string[] }).scopes).toEqual(['k8s_proxy', 'self_rotate'])
  })

  it('malformed JSON is a clear 400', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    const r = await call('POST', '/personal_access_tokens/self/rotate', {
      token: me.secret,
      rawBody: '{"expires_at":',
      headers: { 'content-type': 'application/json' },
    })
    expect(r.status).toBe(400)
    expect(r.text).toBe('{"error":"body is not valid JSON"}')
  })

  it('a JSON body that is not an object is a clear 400', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    const r = await call('POST', '/personal_access_tokens/self/rotate', { token: me.secret, body: ['x'] })
    expect(r.text).toBe('{"error":"body must be a JSON object"}')
  })

  it('a JSON null body is no parameters, as go-gitlab sends for nil options', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    const r = await call('POST', '/personal_access_tokens/self/rotate', {
      token: me.secret,
      rawBody: 'null',
      headers: { 'content-type': 'application/json' },
    })
    expect(r.status).toBe(200)
    expect(r.json).toMatchObject({ name: 'token', active: true })
  })

  it('a wrongly typed parameter is "<param> is invalid"', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    const r = await call('POST', '/personal_access_tokens/self/rotate', {
      token: me.secret,
      body: { expires_at: 20260401 },
    })
    expect(r.status).toBe(400)
    expect(r.text).toBe('{"error":"expires_at is invalid"}')
    const name = await call('POST', '/user/personal_access_tokens', {
      token: me.secret,
      body: { name: 5, scopes: ['k8s_proxy'] },
    })
    expect(name.text).toBe('{"error":"name is invalid"}')
  })

  it('an unknown body parameter is a clear 400', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    const r = await call('POST', '/personal_access_tokens/self/rotate', {
      token: me.secret,
      body: { expire_at: '2026-04-01' },
    })
    expect(r.status).toBe(400)
    expect(r.text).toBe('{"error":"expire_at is not a known parameter"}')
  })

  it('a body over the limit is 413, declared or streamed', async () => {
    const { call, issue } = await httpWorld({}, { bodyLimit: 1024 })
    const me = await issue(ALICE.id)
    const big = JSON.stringify({ expires_at: 'x'.repeat(2000) })
    const r = await call('POST', '/personal_access_tokens/self/rotate', {
      token: me.secret,
      rawBody: big,
      headers: { 'content-type': 'application/json' },
    })
    expect(r.status).toBe(413)
    expect(r.text).toBe('{"error":"413 Request Entity Too Large"}')
  })

  it('an unsupported media type is 415', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    const r = await call('POST', '/personal_access_tokens/self/rotate', {
      token: me.secret,
      rawBody: 'expires_at: 2026-04-01',
      headers: { 'content-type': 'text/yaml' },
    })
    expect(r.status).toBe(415)
    expect(r.text).toBe('{"error":"415 Unsupported Media Type"}')
  })

  it('a private_token in the body authenticates, as GitLab accepts', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    const r = await call('POST', '/personal_access_tokens/self/rotate', {
      body: { private_token: me.secret },
    })
    expect(r.status).toBe(200)
  })

  it('HEAD answers like GET without a body', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    const r = await call('HEAD', '/personal_access_tokens', { token: me.secret })
    expect(r.status).toBe(200)
    expect(r.text).toBe('')
    expect(r.headers.get('x-total')).toBe('1')
  })

  it('HEAD never carries a body, for errors either', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    for (const path of ['/api/v4/nope', '/personal_access_tokens/abc', '/personal_access_tokens/self']) {
      const r = await call('HEAD', path, path.endsWith('self') ? {} : { token: me.secret })
      expect(r.text, path).toBe('')
      expect(r.status, path).toBeGreaterThanOrEqual(400)
    }
  })

  it('an unknown parameter name is echoed at most 64 characters long', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    const r = await call('POST', '/personal_access_tokens/self/rotate', {
      token: me.secret,
      body: { ['k'.repeat(5000)]: 1 },
    })
    expect(r.status).toBe(400)
    expect(r.text).toBe(`{"error":"${'k'.repeat(64)}… is not a known parameter"}`)
  })

  it('DELETE answers 204 with an empty body and no content type', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    const other = await issue(ALICE.id)
    const r = await call('DELETE', `/personal_access_tokens/${other.token.id}`, { token: me.secret })
    expect(r.status).toBe(204)
    expect(r.text).toBe('')
    expect(r.headers.get('content-type')).toBeNull()
  })

  it('GET by id answers the token entity with active computed at the authority clock', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    const bob = await issue(BOB.id)
    const r = await call('GET', `/personal_access_tokens/${me.token.id}`, { token: me.secret })
    expect(r.json).toMatchObject({ id: me.token.id, active: true, user_id: ALICE.id })
    expect((await call('GET', `/personal_access_tokens/${bob.token.id}`, { token: me.secret })).status).toBe(
      401,
    )
  })
})
