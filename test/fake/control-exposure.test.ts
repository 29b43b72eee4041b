import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { CONTROL_OPENAPI } from '../../src/fake/control/control-routes.js'
import { createFakeGitLab, type FakeGitLab, type FakeGitLabOptions } from '../../src/fake/fake-gitlab.js'

// Who can drive the control API: a web page the user visits must neither drive it (a "simple"
// cross-origin request, CSRF) nor read it (DNS rebinding), on createFakeGitLab's socket as on patkit
// serve's (test/cli/serve-control.test.ts).

const ROOT = 'glpat-exposure-root-secret-1'
const ALICE = 'glpat-exposure-alice-secret-1'

const running: FakeGitLab[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((gitlab) => gitlab.close()))
})

async function start(options: FakeGitLabOptions = {}): Promise<FakeGitLab> {
  const gitlab = await createFakeGitLab({
    users: [
      { id: 1, username: 'root', admin: true },
      { id: 2, username: 'alice' },
    ],
    tokens: [
      { id: 1, user_id: 1, name: 'root', scopes: ['api'], token: ROOT },
      { id: 2, user_id: 2, name: 'ci', scopes: ['api'], token: ALICE },
    ],
    ...options,
  })
  running.push(gitlab)
  return gitlab
}

const portOf = (gitlab: FakeGitLab) => Number(new URL(gitlab.url).port)

interface Answer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
}

/** One raw HTTP/1.1 exchange: any Host, any target, as a browser or a script could send them. */
function exchange(
  port: number,
  method: string,
  target: string,
  headers: Readonly<Record<string, string>>,
  body = '',
): Promise<Answer> {
  const lines = [`${method} ${target} HTTP/1.1`, 'Connection: close']
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`)
  if (body !== '') lines.push(`Content-Length: ${Buffer.byteLength(body)}`)
  const raw = `${lines.join('\r\n')}\r\n\r\n${body}`
  return new Promise((resolve, reject) => {
    // write, not end: node's server ends a connection the client half-closed (its httpAllowHalfOpen is
    // off) before an answer still being computed is written; `Connection: close` ends it after the answer.
    const socket = connect(port, '127.0.0.1', () => socket.write(raw))
    const chunks: Buffer[] = []
    socket.on('data', (chunk) => chunks.push(chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const [head = '', ...rest] = text.split('\r\n\r\n')
      const [statusLine = '', ...headerLines] = head.split('\r\n')
      const parsed: Record<string, string> = {}
      for (const line of headerLines) {
        const colon = line.indexOf(':')
        parsed[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers: parsed, body: rest.join('\r\n\r\n') })
    })
  })
}

/** Whether a user is an administrator, as root sees it on GitLab's API. */
async function isAdmin(gitlab: FakeGitLab, id: number): Promise<boolean | null> {
  const response = await fetch(`${gitlab.apiUrl}/users/${id}`, { headers: { 'PRIVATE-TOKEN': ROOT } })
  if (response.status !== 200) return null
  return ((await response.json()) as { is_admin?: boolean }).is_admin === true
}

const selfStatus = async (gitlab: FakeGitLab, secret: string) =>
  (await fetch(`${gitlab.apiUrl}/personal_access_tokens/self`, { headers: { 'PRIVATE-TOKEN': secret } }))
    .status

describe('bodies are JSON only: no simple (preflight-free) cross-origin request writes', () => {
  it('POST /users as text/plain is 415 and adds no user', async () => {
    const gitlab = await start()
    const host = { Host: `127.0.0.1:${portOf(gitlab)}` }
    const answer = await exchange(
      portOf(gitlab),
      'POST',
      '/__patkit/users',
      { ...host, 'Content-Type': 'text/plain;charset=UTF-8' },
      '{"id":3,"username":"mallory","admin":true}',
    )
    expect(answer.status).toBe(415)
    expect(answer.headers['content-type']).toBe('application/json')
    expect(JSON.parse(answer.body)).toEqual({
      error:
        'the control API takes JSON bodies only: send Content-Type: application/json (not "text/plain;charset=UTF-8")',
    })
    expect(await isAdmin(gitlab, 3)).toBeNull()
    const state = await gitlab.snapshot()
    expect(state.users?.map((u) => u.username)).toEqual(['root', 'alice'])
  })

  it('a form-encoded POST /users does not make alice an admin', async () => {
    const gitlab = await start()
    const answer = await exchange(
      portOf(gitlab),
      'POST',
      '/__patkit/users',
      { Host: 'localhost', 'Content-Type': 'application/x-www-form-urlencoded' },
      'id=2&username=alice&admin=true',
    )
    expect(answer.status).toBe(415)
    expect(await isAdmin(gitlab, 2)).toBe(false)
  })

  it('POST /tokens as text/plain is 415 and the planted secret does not authenticate', async () => {
    const gitlab = await start()
    const planted = 'glpat-planted-by-a-web-page-1'
    const answer = await exchange(
      portOf(gitlab),
      'POST',
      '/__patkit/tokens',
      { Host: 'localhost', 'Content-Type': 'text/plain' },
      JSON.stringify({ user_id: 1, name: 'x', scopes: ['api'], token: planted }),
    )
    expect(answer.status).toBe(415)
    expect(await selfStatus(gitlab, planted)).toBe(401)
  })

  it('a body without Content-Type is 415; a body-less POST without one is served', async () => {
    const gitlab = await start()
    const untyped = await exchange(
      portOf(gitlab),
      'POST',
      '/__patkit/clock/advance',
      { Host: 'localhost' },
      '{"days":1}',
    )
    expect([untyped.status, JSON.parse(untyped.body)]).toEqual([
      415,
      { error: 'the control API takes JSON bodies only: send Content-Type: application/json' },
    ])
    expect(gitlab.clock.now().toISOString()).toBe('2026-01-01T00:00:00.000Z')
    expect((await fetch(`${gitlab.url}/__patkit/reset`, { method: 'POST' })).status).toBe(200)
    const typed = await fetch(`${gitlab.url}/__patkit/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: '{"days":1}',
    })
    expect(typed.status).toBe(200)
    expect(gitlab.clock.now().toISOString()).toBe('2026-01-02T00:00:00.000Z')
  })

  it('fetch with a string body and no header sends text/plain: 415', async () => {
    const gitlab = await start()
    const response = await fetch(`${gitlab.url}/__patkit/clock/set`, {
      method: 'POST',
      body: '{"at":"2030-01-01T00:00:00Z"}',
    })
    expect(response.status).toBe(415)
    expect(gitlab.clock.now().toISOString()).toBe('2026-01-01T00:00:00.000Z')
  })
})

describe('the Host must be a loopback or an allowed one: DNS rebinding', () => {
  it('GET /state with Host: evil.example is 403 and shows no secret', async () => {
    const gitlab = await start()
    const answer = await exchange(portOf(gitlab), 'GET', '/__patkit/state', { Host: 'evil.example' })
    expect(answer.status).toBe(403)
    expect(answer.body).not.toContain(ALICE)
    expect(answer.body).not.toContain(ROOT)
    expect(JSON.parse(answer.body)).toEqual({
      error:
        'the control API answers only requests for localhost, 127.0.0.1 or [::1], or a host allowed with --allow-host or --public-url, not for host "evil.example" (a defence against DNS rebinding)',
    })
    const withPort = await exchange(portOf(gitlab), 'GET', '/__patkit/state', {
      Host: `evil.example:${portOf(gitlab)}`,
    })
    expect(withPort.status).toBe(403)
  })

  it('writes with a foreign Host are refused before anything is written', async () => {
    const gitlab = await start()
    const answer = await exchange(
      portOf(gitlab),
      'POST',
      '/__patkit/users',
      { Host: 'rebound.evil.example:80', 'Content-Type': 'application/json' },
      '{"id":2,"username":"alice","admin":true}',
    )
    expect(answer.status).toBe(403)
    expect(await isAdmin(gitlab, 2)).toBe(false)
  })

  it('an absolute-form target naming another host is refused too', async () => {
    const gitlab = await start()
    const answer = await exchange(portOf(gitlab), 'GET', 'http://evil.example/__patkit/state', {
      Host: 'localhost',
    })
    expect(answer.status).toBe(403)
  })

  it.each(['localhost', 'LOCALHOST:1234', '127.0.0.1', '127.1.2.3:80', '[::1]:3000', 'localhost.'])(
    'Host %s is served',
    async (host) => {
      const gitlab = await start()
      expect((await exchange(portOf(gitlab), 'GET', '/__patkit/clock', { Host: host })).status).toBe(200)
    },
  )

  it('allowedHosts and the publicUrl host are served, any port; other hosts are not', async () => {
    const gitlab = await start({ allowedHosts: ['patkit'], publicUrl: 'https://gitlab.example.com/' })
    const status = async (host: string) =>
      (await exchange(portOf(gitlab), 'GET', '/__patkit/clock', { Host: host })).status
    expect(await status('patkit:3000')).toBe(200)
    expect(await status('gitlab.example.com')).toBe(200)
    expect(await status('patkit.evil.example')).toBe(403)
    expect(await status('example.com')).toBe(403)
  })

  it('allowedHosts * serves any host', async () => {
    const gitlab = await start({ allowedHosts: ['*'], controlToken: 'ct' })
    const answer = await exchange(portOf(gitlab), 'GET', '/__patkit/clock', {
      Host: 'anything.example',
      'X-Patkit-Control-Token': 'ct',
    })
    expect(answer.status).toBe(200)
  })
})

describe('requests from web pages of another origin are refused; no CORS header is sent', () => {
  it('a JSON POST with a foreign Origin is 403 and writes nothing', async () => {
    const gitlab = await start()
    const answer = await exchange(
      portOf(gitlab),
      'POST',
      '/__patkit/users',
      {
        Host: `127.0.0.1:${portOf(gitlab)}`,
        Origin: 'http://evil.example',
        'Content-Type': 'application/json',
      },
      '{"id":2,"username":"alice","admin":true}',
    )
    expect([answer.status, JSON.parse(answer.body)]).toEqual([
      403,
      {
        error:
          'the control API refuses requests from web pages of another origin (Origin: http://evil.example)',
      },
    ])
    expect(await isAdmin(gitlab, 2)).toBe(false)
    expect(Object.keys(answer.headers).filter((h) => h.startsWith('access-control-'))).toEqual([])
  })

  it.each([
    ['Origin: null (a sandboxed frame)', { Origin: 'null' }],
    ['another port of localhost', { Origin: 'http://localhost:1' }],
    ['Sec-Fetch-Site: cross-site', { 'Sec-Fetch-Site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site', { 'Sec-Fetch-Site': 'same-site' }],
  ])('%s is 403', async (_, headers) => {
    const gitlab = await start()
    const answer = await exchange(portOf(gitlab), 'POST', '/__patkit/reset', {
      Host: `localhost:${portOf(gitlab)}`,
      ...headers,
    })
    expect(answer.status).toBe(403)
  })

  it('the same origin (a page the fake serves itself) and Sec-Fetch-Site: none are served', async () => {
    const gitlab = await start()
    const host = `localhost:${portOf(gitlab)}`
    for (const headers of [
      { Origin: `http://${host}`, 'Sec-Fetch-Site': 'same-origin' },
      { 'Sec-Fetch-Site': 'none' },
    ]) {
      expect(
        (await exchange(portOf(gitlab), 'GET', '/__patkit/clock', { Host: host, ...headers })).status,
      ).toBe(200)
    }
  })

  it('a CORS preflight is refused without any CORS header', async () => {
    const gitlab = await start()
    const answer = await exchange(portOf(gitlab), 'OPTIONS', '/__patkit/users', {
      Host: `localhost:${portOf(gitlab)}`,
      Origin: 'http://evil.example',
      'Access-Control-Request-Method': 'POST',
      'Access-Control-Request-Headers': 'content-type',
    })
    expect(answer.status).toBe(403)
    expect(Object.keys(answer.headers).filter((h) => h.startsWith('access-control-'))).toEqual([])
  })
})

describe('the control token', () => {
  it('a wrong token, a prefix of it and a longer one are 401; the token is 200', async () => {
    const gitlab = await start({ controlToken: 'a-long-control-token' })
    const status = async (token: string | null) =>
      (
        await fetch(`${gitlab.url}/__patkit/clock`, {
          headers: token === null ? {} : { 'x-patkit-control-token': token },
        })
      ).status
    expect(await status(null)).toBe(401)
    expect(await status('a-long')).toBe(401)
    expect(await status('a-long-control-token-and-more')).toBe(401)
    expect(await status('A-LONG-CONTROL-TOKEN')).toBe(401)
    expect(await status('a-long-control-token')).toBe(200)
  })

  it('createFakeGitLab on an address other machines reach needs a controlToken', async () => {
    await expect(createFakeGitLab({ host: '0.0.0.0' })).rejects.toThrow(
      'createFakeGitLab: host "0.0.0.0" is reachable from other machines: give a controlToken to guard the control API',
    )
    const gitlab = await start({ host: '0.0.0.0', controlToken: 'ct' })
    const clock = await fetch(`http://127.0.0.1:${portOf(gitlab)}/__patkit/clock`, {
      headers: { 'x-patkit-control-token': 'ct' },
    })
    expect(clock.status).toBe(200)
  })
})

describe('the OpenAPI document', () => {
  it('declares 401, 403 and 415 on every operation, and 413 on every one that can take a body', () => {
    const operations = Object.entries(CONTROL_OPENAPI.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ route: `${method} ${path}`, operation })),
    )
    expect(operations.length).toBeGreaterThanOrEqual(17)
    for (const { route, operation } of operations) {
      const codes = Object.keys(operation.responses)
      expect(codes, route).toEqual(expect.arrayContaining(['401', '403', '415']))
      expect(codes.includes('413'), route).toBe(!route.startsWith('get '))
    }
    expect(Object.keys(CONTROL_OPENAPI.components.responses).sort()).toEqual([
      'Forbidden',
      'PayloadTooLarge',
      'Unauthorized',
      'UnsupportedMediaType',
    ])
  })
})
