import { describe, expect, it } from 'vitest'
import { ADMIN, ALICE } from '../support/authority-fixtures.js'
import { type CallOptions, httpWorld as jsonWorld } from '../support/http-fixtures.js'

// Issue 9, item 4: GitLab's Rack middleware (Gitlab::Middleware::HandleMalformedStrings) answers
// 400 `Bad Request` as text/plain to a null byte or invalid UTF-8 in the path, in a parameter value
// (query, form or JSON) or in Basic credentials, before routing or authentication. The same
// requests on PostgreSQL, MariaDB and SQLite: malformed-strings-sql.test.ts.

/** httpWorld, with a `call` that reads the answer as text only (the answer under test is not JSON). */
async function httpWorld() {
  const w = await jsonWorld()
  async function call(method: string, path: string, opts: CallOptions = {}) {
    const headers: Record<string, string> = { ...opts.headers }
    if (opts.token !== undefined) headers['PRIVATE-TOKEN'] = opts.token
    let body = opts.rawBody
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body)
      headers['content-type'] ??= 'application/json'
    }
    const api = /^\/(personal_access_tokens|users?\/)/.test(path) ? `/api/v4${path}` : path
    const response = await w.handler(
      new Request(`http://gitlab.test${api}`, { method, headers, ...(body === undefined ? {} : { body }) }),
    )
    const text = await response.text()
    return { status: response.status, headers: response.headers, text }
  }
  return { ...w, call }
}

async function expectMalformed(response: { status: number; text: string; headers: Headers }) {
  expect([response.status, response.headers.get('content-type'), response.text]).toEqual([
    400,
    'text/plain',
    'Bad Request',
  ])
}

describe('a null byte or invalid UTF-8 is GitLab’s 400 "Bad Request"', () => {
  it('in a query value: search=%00, user_id=al%00ice, scopes[]=…%00', async () => {
    const { call, issue } = await httpWorld()
    const root = await issue(ADMIN.id)
    for (const query of ['search=%00', 'user_id=al%00ice', 'state=active&search=a%00b', 'x[]=%00']) {
      await expectMalformed(await call('GET', `/personal_access_tokens?${query}`, { token: root.secret }))
    }
  })

  it('in the private_token parameter, and before authentication: no token needed to get it', async () => {
    const { call } = await httpWorld()
    await expectMalformed(await call('GET', '/personal_access_tokens/self?private_token=glpat-%00'))
    await expectMalformed(await call('GET', '/personal_access_tokens?search=%00'))
  })

  it('in the path, on any route or none (the middleware runs before routing)', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    for (const path of ['/personal_access_tokens/%00', '/api/v4/users/al%00ice/x', '/other/%00']) {
      await expectMalformed(await call('GET', path, { token: me.secret }))
    }
  })

  it('a bad % escape or invalid UTF-8 in the path or a query value, as Rack refuses them', async () => {
    const { call, issue } = await httpWorld()
    const root = await issue(ADMIN.id)
    for (const path of [
      '/personal_access_tokens?search=%zz',
      '/personal_access_tokens?search=%C0%AF',
      '/personal_access_tokens?search=%E0%A4%A',
      '/personal_access_tokens?%zz=1',
      '/personal_access_tokens/%C0%AF',
      '/personal_access_tokens/1%',
    ]) {
      await expectMalformed(await call('GET', path, { token: root.secret }))
    }
  })

  it('but not a null byte or invalid UTF-8 in a parameter name, which GitLab does not check', async () => {
    const { call, issue } = await httpWorld()
    const root = await issue(ADMIN.id)
    for (const query of ['a%00=1', '%C0=1']) {
      const r = await call('GET', `/personal_access_tokens?${query}`, { token: root.secret })
      expect(r.status, query).toBe(200)
    }
  })

  it('in name or description on both create routes, JSON or form', async () => {
    const { call, issue } = await httpWorld()
    const root = await issue(ADMIN.id)
    const me = await issue(ALICE.id)
    const cases = [
      { token: root.secret, path: `/users/${ALICE.id}/personal_access_tokens`, scopes: ['api'] },
      { token: me.secret, path: '/user/personal_access_tokens', scopes: ['k8s_proxy'] },
    ]
    for (const { token, path, scopes } of cases) {
      for (const body of [
        { name: 'ci\u0000', scopes },
        { name: 'ci', scopes, description: 'a\u0000b' },
        { name: 'ci', scopes: [...scopes, '\u0000'] },
        { name: 'ci', scopes, expires_at: '2026-04-01\u0000' },
      ]) {
        await expectMalformed(await call('POST', path, { token, body }))
      }
      await expectMalformed(
        await call('POST', path, {
          token,
          rawBody: `name=a%00&scopes[]=${scopes[0]}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
      )
    }
    // Nothing was created.
    const list = await call('GET', '/personal_access_tokens', { token: root.secret })
    expect(list.headers.get('x-total')).toBe('2')
  })

  it('in a rotate body, before authentication and before the unknown-parameter check', async () => {
    const { call } = await httpWorld()
    await expectMalformed(
      await call('POST', '/personal_access_tokens/self/rotate', { body: { nope: '\u0000' } }),
    )
  })

  it('a JSON or form body that is not UTF-8, or a form with a bad % escape', async () => {
    const { handler, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    const bodies: [string, BodyInit][] = [
      ['application/json', Uint8Array.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xc0, 0x22, 0x7d])],
      ['application/x-www-form-urlencoded', Uint8Array.from([0x6e, 0x61, 0x6d, 0x65, 0x3d, 0xff])],
      ['application/x-www-form-urlencoded', 'name=%C0&scopes=k8s_proxy'],
      ['application/x-www-form-urlencoded', 'name=%zz&scopes=k8s_proxy'],
    ]
    for (const [type, body] of bodies) {
      const response = await handler(
        new Request('http://gitlab.test/api/v4/user/personal_access_tokens', {
          method: 'POST',
          headers: { 'PRIVATE-TOKEN': me.secret, 'content-type': type },
          body,
        }),
      )
      await expectMalformed({
        status: response.status,
        headers: response.headers,
        text: await response.text(),
      })
    }
  })

  it('a body of a type GitLab does not parse is still 415, whatever its bytes', async () => {
    const { handler, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    const response = await handler(
      new Request('http://gitlab.test/api/v4/user/personal_access_tokens', {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': me.secret, 'content-type': 'application/octet-stream' },
        body: Uint8Array.from([0, 0xc0, 0xff]),
      }),
    )
    expect(response.status).toBe(415)
  })

  it('Basic credentials that decode to a null byte, as GitLab checks them', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    const basic = `Basic ${Buffer.from('alice:\u0000').toString('base64')}`
    await expectMalformed(
      await call('GET', '/personal_access_tokens/self', {
        token: me.secret,
        headers: { authorization: basic },
      }),
    )
    const fine = `Basic ${Buffer.from('alice:pw').toString('base64')}`
    const r = await call('GET', '/personal_access_tokens/self', {
      token: me.secret,
      headers: { authorization: fine },
    })
    expect(r.status).toBe(200)
  })

  it('a value nested deeper than GitLab looks is no scope, not a malformed string', async () => {
    const { call, issue } = await httpWorld()
    const me = await issue(ALICE.id)
    const r = await call('POST', '/user/personal_access_tokens', {
      token: me.secret,
      body: { name: 'ci', scopes: [[[['\u0000']]]] },
    })
    // GitLab's coercion makes the nested array one text scope (`to_s`), which `values:` refuses.
    expect([r.status, r.text]).toEqual([400, '{"error":"scopes does not have a valid value"}'])
  })

  it('HEAD gets the 400 without a body', async () => {
    const { call } = await httpWorld()
    const r = await call('HEAD', '/personal_access_tokens?search=%00')
    expect([r.status, r.text]).toEqual([400, ''])
  })

  it('a NUL written as text (%2500, \\\\u0000) is no NUL: searched for, not refused', async () => {
    const { call, issue } = await httpWorld()
    const root = await issue(ADMIN.id)
    const r = await call('GET', '/personal_access_tokens?search=%2500', { token: root.secret })
    expect([r.status, r.text]).toEqual([200, '[]'])
  })
})
