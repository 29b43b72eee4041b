import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { killAll, runCli, SERVE_TIMEOUT, startServe } from './support/cli-process.js'

const dir = mkdtempSync(join(tmpdir(), 'patkit-cli-'))
afterEach(killAll)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function seedFile(name: string, content: unknown): string {
  const path = join(dir, name)
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content))
  return path
}

const self = (apiUrl: string, secret: string, init: RequestInit = {}) =>
  fetch(`${apiUrl}/personal_access_tokens/self${init.method === 'POST' ? '/rotate' : ''}`, {
    ...init,
    headers: { 'PRIVATE-TOKEN': secret },
  })

describe('patkit serve: listening and demo data', { timeout: SERVE_TIMEOUT }, () => {
  it('prints "patkit listening on http://HOST:PORT" first, with the real port, and serves the API there', async () => {
    const server = await startServe()
    const port = Number(new URL(server.url).port)
    expect(port).toBeGreaterThan(0)
    expect(server.lines[0]).toBe(`patkit listening on http://127.0.0.1:${port}`)
    const response = await fetch(`${server.apiUrl}/personal_access_tokens`)
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({ message: '401 Unauthorized' })
    expect(await server.stop('SIGTERM')).toEqual({ code: 0, signal: null })
  })

  it('creates root (admin) and alice with one api token each, prints them and a curl line', async () => {
    const server = await startServe([], { extraLines: 6 })
    const [, rootLine, aliceLine, curlLine] = server.lines
    const rootSecret = /^root \(admin\): (glpat-[A-Za-z0-9_-]{32,}\.01\.[0-9a-z]{9})$/.exec(
      rootLine ?? '',
    )?.[1]
    const aliceSecret = /^alice: (glpat-[A-Za-z0-9_-]{32,}\.01\.[0-9a-z]{9})$/.exec(aliceLine ?? '')?.[1]
    expect(rootSecret).toBeDefined()
    expect(aliceSecret).toBeDefined()
    expect(curlLine).toBe(
      `try: curl -H "PRIVATE-TOKEN: ${rootSecret}" ${server.url}/api/v4/personal_access_tokens`,
    )
    const root = await self(server.apiUrl, rootSecret as string)
    expect(root.status).toBe(200)
    expect(await root.json()).toMatchObject({ user_id: 1, scopes: ['api'], active: true, revoked: false })
    const alice = await self(server.apiUrl, aliceSecret as string)
    expect(await alice.json()).toMatchObject({ user_id: 2, scopes: ['api'], active: true })
    // root is an admin: it sees the demo tokens, the bot's included.
    const all = await fetch(`${server.apiUrl}/personal_access_tokens`, {
      headers: { 'PRIVATE-TOKEN': rootSecret as string },
    })
    expect(((await all.json()) as unknown[]).length).toBe(3)
    expect(await server.stop()).toEqual({ code: 0, signal: null })
  })

  it("creates the demo group and project with the project's bot (Maintainer), prints its token and how to try it", async () => {
    const server = await startServe([], { extraLines: 6 })
    const [, , aliceLine, , botLine, projectLine, botSelfLine] = server.lines
    const aliceSecret = /^alice: (glpat-\S+)$/.exec(aliceLine ?? '')?.[1]
    const match =
      /^(project_1_bot_[0-9a-f]{32}) \(bot of project demo\/app, Maintainer\): (glpat-[A-Za-z0-9_-]{32,}\.01\.[0-9a-z]{9})$/.exec(
        botLine ?? '',
      )
    expect(match).not.toBeNull()
    const botSecret = match?.[2] as string
    // GitLab's routes exactly: a project's access tokens, listed by a Maintainer; the bot's own token.
    expect(projectLine).toBe(
      `try: curl -H "PRIVATE-TOKEN: ${aliceSecret}" ${server.url}/api/v4/projects/1/access_tokens`,
    )
    expect(botSelfLine).toBe(
      `try: curl -H "PRIVATE-TOKEN: ${botSecret}" ${server.url}/api/v4/personal_access_tokens/self`,
    )
    const listed = await fetch(`${server.apiUrl}/projects/1/access_tokens`, {
      headers: { 'PRIVATE-TOKEN': aliceSecret as string },
    })
    expect(listed.status).toBe(200)
    expect(await listed.json()).toMatchObject([
      { id: 3, user_id: 3, scopes: ['api'], access_level: 40, resource_type: 'project', resource_id: 1 },
    ])
    const bot = await self(server.apiUrl, botSecret)
    expect(bot.status).toBe(200)
    expect(await bot.json()).toMatchObject({ user_id: 3, scopes: ['api'], active: true })
    const state = await fetch(`${server.url}/__patkit/state`)
    expect(await state.json()).toMatchObject({
      users: [{ id: 1 }, { id: 2 }, { id: 3, bot: true, bot_namespace: { type: 'project', id: 1 } }],
      groups: [{ id: 1, path: 'demo', visibility: 'private', members: [{ user_id: 2, access_level: 40 }] }],
      projects: [
        {
          id: 1,
          path: 'app',
          group_id: 1,
          visibility: 'private',
          members: [
            { user_id: 2, access_level: 40 },
            { user_id: 3, access_level: 40 },
          ],
        },
      ],
    })
    expect(await server.stop()).toEqual({ code: 0, signal: null })
  })

  it('stops cleanly on SIGINT too', async () => {
    const server = await startServe()
    expect(await server.stop('SIGINT')).toEqual({ code: 0, signal: null })
    expect(server.stderr()).toContain('SIGINT received')
  })

  it('lets a request in flight finish before it exits', async () => {
    const server = await startServe([], { extraLines: 2 })
    const aliceSecret = (server.lines[2] ?? '').replace('alice: ', '')
    const url = new URL(`${server.apiUrl}/personal_access_tokens/self/rotate`)
    // The server runs on the real clock: a valid expiry is a day within the next 365.
    const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10)
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(url, {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': aliceSecret, 'content-type': 'application/x-www-form-urlencoded' },
      })
      req.on('response', (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          body += chunk
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      })
      req.on('error', reject)
      // Half the body now, the rest after the signal: the request is in flight when SIGTERM arrives.
      req.write('expires_')
      setTimeout(() => {
        server.child.kill('SIGTERM')
        setTimeout(() => req.end(`at=${expiresAt}`), 300)
      }, 200)
    })
    const { status, body } = await response
    expect(status).toBe(200)
    expect(JSON.parse(body)).toMatchObject({
      user_id: 2,
      expires_at: expiresAt,
      token: expect.stringMatching(/^glpat-/),
    })
    expect(await server.exited()).toEqual({ code: 0, signal: null })
  })
})

describe('patkit serve --seed', { timeout: SERVE_TIMEOUT }, () => {
  const seed = {
    users: [
      { id: 1, username: 'root', admin: true },
      { id: 2, username: 'alice' },
    ],
    tokens: [
      {
        id: 10,
        user_id: 2,
        name: 'ci',
        scopes: ['api'],
        token: 'glpat-any-secret-string',
        description: null,
        created_at: '2022-01-01T12:30:25.000Z',
        last_used_at: null,
        expires_at: '2099-01-01',
        revoked: false,
        impersonation: false,
        previous_id: null,
      },
      { id: 11, user_id: 1, name: 'old', scopes: ['read_api'], token: 'glpat-revoked-secret', revoked: true },
      { user_id: 1, name: 'forever', scopes: ['api'], token: 'glpat-never-expires', expires_at: null },
    ],
  }

  it('loads users and tokens with their known secrets, ids and dates', async () => {
    const path = seedFile('good.json', seed)
    const server = await startServe(['--seed', path], { extraLines: 1 })
    expect(server.lines[1]).toBe(`seeded 2 users and 3 tokens from ${path}`)
    const ci = await self(server.apiUrl, 'glpat-any-secret-string')
    expect(ci.status).toBe(200)
    expect(await ci.json()).toMatchObject({
      id: 10,
      name: 'ci',
      user_id: 2,
      created_at: '2022-01-01T12:30:25.000Z',
      expires_at: '2099-01-01',
      description: null,
      active: true,
    })
    const forever = await self(server.apiUrl, 'glpat-never-expires')
    expect(await forever.json()).toMatchObject({ id: 12, user_id: 1, expires_at: null })
    const revoked = await self(server.apiUrl, 'glpat-revoked-secret')
    expect(revoked.status).toBe(401)
    expect(await server.stop()).toEqual({ code: 0, signal: null })
  })

  it.each([
    [
      'a scope that does not exist',
      { tokens: [{ user_id: 1, name: 'x', scopes: ['api', 'root'], token: 'glpat-12345678' }] },
      'tokens[0].scopes[1]: Invalid option: expected one of "api"|',
    ],
    [
      'an unknown key',
      { users: [{ id: 1, username: 'root', role: 'admin' }] },
      'users[0].role: Unknown field',
    ],
    ['a missing field', { users: [{ id: 1 }] }, 'users[0].username:'],
    [
      'an unknown user',
      {
        users: [{ id: 1, username: 'root' }],
        tokens: [{ user_id: 7, name: 'x', scopes: ['api'], token: 'glpat-12345678' }],
      },
      'tokens[0].user_id: No user with id 7',
    ],
    [
      'an invalid expiry date',
      {
        users: [{ id: 1, username: 'root' }],
        tokens: [
          { user_id: 1, name: 'x', scopes: ['api'], token: 'glpat-12345678', expires_at: '2030-02-30' },
        ],
      },
      'tokens[0].expires_at: Invalid date',
    ],
    [
      'an instant without offset',
      {
        users: [{ id: 1, username: 'root' }],
        tokens: [
          { user_id: 1, name: 'x', scopes: ['api'], token: 'glpat-12345678', created_at: '2022-01-01 12:00' },
        ],
      },
      'tokens[0].created_at: Invalid ISO datetime',
    ],
    ['invalid JSON', '{ "users": [', 'not valid JSON'],
  ])('rejects %s before listening, naming the field', async (_what, content, expected) => {
    const path = seedFile('bad.json', content)
    const run = runCli(['serve', '--port', '0', '--seed', path])
    expect((await run.exited()).code).toBe(1)
    expect(run.lines).toEqual([])
    expect(run.stderr()).toContain(`patkit serve: seed file ${path}: ${expected}`)
  })

  it('rejects a seed file that does not exist', async () => {
    const run = runCli(['serve', '--port', '0', '--seed', join(dir, 'missing.json')])
    expect((await run.exited()).code).toBe(1)
    expect(run.stderr()).toContain('missing.json: cannot read it: no such file')
  })
})

describe('patkit serve flags', { timeout: SERVE_TIMEOUT }, () => {
  it.each([
    [['--port', 'abc'], '--port must be an integer from 0 to 65535, got "abc"'],
    [['--port', '65536'], '--port must be an integer from 0 to 65535'],
    [['--port', '-1'], "'--port'"],
    [['--host', ''], '--host must be a host name or address'],
    [['--release', 'sixteen'], '--release must be a GitLab release MAJOR.MINOR'],
    [['--public-url', 'gitlab.example.com'], '--public-url must be an absolute http(s) URL'],
    [['--public-url', 'ftp://gitlab.example.com'], '--public-url must be an http or https URL'],
    [['--database', 'redis://localhost'], '--database: unsupported scheme "redis:"'],
    [['--database', 'sqlite:'], '--database sqlite: needs a file'],
    [['--pepper', ''], '--pepper must not be empty'],
    [['--seed'], "Option '--seed <value>' argument missing"],
    [['--prot', '1'], "Unknown option '--prot'"],
    [['extra'], 'serve takes no arguments, got "extra"'],
  ])('%j exits 2 naming the flag, with the usage on stderr', async (args, expected) => {
    const run = runCli(['serve', ...args])
    expect((await run.exited()).code).toBe(2)
    expect(run.lines).toEqual([])
    expect(run.stderr()).toContain(expected)
    expect(run.stderr()).toContain('Usage: patkit serve')
  })

  it('--help prints the usage and exits 0', async () => {
    const run = runCli(['serve', '--help'])
    expect((await run.exited()).code).toBe(0)
    expect(run.lines.join('\n')).toContain('--public-url URL')
  })

  it('--release 16.9 emulates a GitLab without POST /self/rotate', async () => {
    const old = await startServe(['--release', '16.9'], { extraLines: 2 })
    const secret = (old.lines[2] ?? '').replace('alice: ', '')
    const rotated = await self(old.apiUrl, secret, { method: 'POST' })
    expect(rotated.status).toBe(404)
    expect(await rotated.json()).toEqual({ error: '404 Not Found' })
    expect(await old.stop()).toEqual({ code: 0, signal: null })

    const current = await startServe([], { extraLines: 2 })
    const fresh = (current.lines[2] ?? '').replace('alice: ', '')
    expect((await self(current.apiUrl, fresh, { method: 'POST' })).status).toBe(200)
    expect(await current.stop()).toEqual({ code: 0, signal: null })
  })

  it("--admin-mode: root's demo api token acts as a regular user; --no-require-expiry: a rotation never expires", async () => {
    const server = await startServe(['--admin-mode', '--no-require-expiry'], { extraLines: 2 })
    const rootSecret = (server.lines[1] ?? '').replace('root (admin): ', '')
    const aliceSecret = (server.lines[2] ?? '').replace('alice: ', '')
    const list = await fetch(`${server.apiUrl}/personal_access_tokens`, {
      headers: { 'PRIVATE-TOKEN': rootSecret },
    })
    expect(((await list.json()) as { user_id: number }[]).map((t) => t.user_id)).toEqual([1])
    const rotated = await self(server.apiUrl, aliceSecret, { method: 'POST' })
    expect(await rotated.json()).toMatchObject({ expires_at: null, active: true })
    expect(await server.stop()).toEqual({ code: 0, signal: null })
  })

  it('--public-url is the origin of the Link headers', async () => {
    const server = await startServe(['--public-url', 'https://gitlab.example.com'], { extraLines: 1 })
    const rootSecret = (server.lines[1] ?? '').replace('root (admin): ', '')
    const response = await fetch(`${server.apiUrl}/personal_access_tokens?per_page=1`, {
      headers: { 'PRIVATE-TOKEN': rootSecret },
    })
    // Three demo tokens (root's, alice's and the demo bot's): three pages of one.
    expect(response.headers.get('link')).toBe(
      [
        '<https://gitlab.example.com/api/v4/personal_access_tokens?page=2&per_page=1>; rel="next"',
        '<https://gitlab.example.com/api/v4/personal_access_tokens?page=1&per_page=1>; rel="first"',
        '<https://gitlab.example.com/api/v4/personal_access_tokens?page=3&per_page=1>; rel="last"',
      ].join(', '),
    )
    expect(await server.stop()).toEqual({ code: 0, signal: null })
  })

  it('a port in use is a clear error with exit code 1', async () => {
    const first = await startServe()
    const port = new URL(first.url).port
    const second = runCli(['serve', '--port', port])
    expect((await second.exited()).code).toBe(1)
    expect(second.stderr()).toContain(`cannot listen on 127.0.0.1:${port}`)
    expect(await first.stop()).toEqual({ code: 0, signal: null })
  })
})

describe('patkit serve --database', { timeout: SERVE_TIMEOUT }, () => {
  it('sqlite: keeps tokens across restarts with the same pepper, and seeding again is harmless', async () => {
    const database = `sqlite:${join(dir, 'store.db')}`
    const path = seedFile('persistent.json', {
      users: [{ id: 2, username: 'alice' }],
      tokens: [{ id: 10, user_id: 2, name: 'ci', scopes: ['api'], token: 'glpat-persistent-secret' }],
    })
    const args = ['--no-control', '--database', database, '--seed', path, '--pepper', 'test-pepper']
    const first = await startServe(args, { extraLines: 1 })
    expect(first.lines[1]).toBe(`seeded 1 user and 1 token from ${path}`)
    expect((await self(first.apiUrl, 'glpat-persistent-secret')).status).toBe(200)
    expect(await first.stop()).toEqual({ code: 0, signal: null })

    const second = await startServe(args, { extraLines: 1 })
    expect(second.lines[1]).toBe(`seeded 1 user and 0 tokens from ${path} (1 already stored)`)
    const again = await self(second.apiUrl, 'glpat-persistent-secret')
    expect(await again.json()).toMatchObject({ id: 10, user_id: 2 })
    expect(await second.stop()).toEqual({ code: 0, signal: null })
  })

  it('an unreachable server is a clear error with exit code 1, before listening', async () => {
    const run = runCli([
      'serve',
      '--port',
      '0',
      '--no-control',
      '--database',
      'postgres://patkit:secret@127.0.0.1:1/none',
    ])
    expect((await run.exited()).code).toBe(1)
    expect(run.lines).toEqual([])
    expect(run.stderr()).toContain('patkit serve: cannot prepare postgres://patkit:***@127.0.0.1:1/none')
    expect(run.stderr()).not.toContain('secret')
  })
})
