import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { parseServeArgs } from '../../src/cli/serve-options.js'
import { killAll, runCli, SERVE_TIMEOUT, startServe } from './support/cli-process.js'

// The control plane through `patkit serve`, as a harness in any language starts it.

afterEach(killAll)

const dir = mkdtempSync(join(tmpdir(), 'patkit-serve-control-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A GET of a control route with any Host header (fetch cannot set one). */
function getWithHost(url: string, host: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const { hostname, port } = new URL(url)
    const sent = request(
      { hostname, port, path: '/__patkit/state', headers: { ...headers, host } },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => {
          body += chunk
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      },
    )
    sent.on('error', reject)
    sent.end()
  })
}

const NEEDS_TOKEN =
  'needs a control token when %s: give --control-token-file FILE, PATKIT_CONTROL_TOKEN or --control-token T, or turn the control API off with --no-control'

const secretsOf = (lines: readonly string[]) => lines.slice(1, 3).map((line) => line.replace(/^.*: /, ''))

describe('patkit serve: control flags', { timeout: SERVE_TIMEOUT }, () => {
  it('--clock and --frozen start a clock that stands still; --random-seed repeats the demo secrets', async () => {
    const args = ['--clock', '2026-01-01T00:00:00Z', '--frozen', '--random-seed', '7']
    const first = await startServe(args, { extraLines: 3 })
    const clock = await fetch(`${first.url}/__patkit/clock`)
    expect(await clock.json()).toEqual({ now: '2026-01-01T00:00:00.000Z', frozen: true })
    const [rootSecret] = secretsOf(first.lines)
    const self = await fetch(`${first.apiUrl}/personal_access_tokens/self`, {
      headers: { 'PRIVATE-TOKEN': rootSecret ?? '' },
    })
    expect(await self.json()).toMatchObject({
      created_at: '2026-01-01T00:00:00.000Z',
      expires_at: '2027-01-01',
    })
    expect(await first.stop()).toEqual({ code: 0, signal: null })

    const second = await startServe(args, { extraLines: 3 })
    expect(secretsOf(second.lines)).toEqual(secretsOf(first.lines))
    const other = await startServe(['--random-seed', '8'], { extraLines: 3 })
    expect(secretsOf(other.lines)).not.toEqual(secretsOf(first.lines))
  })

  it('a running clock set over the control API goes on from there', async () => {
    const server = await startServe(['--clock', '2030-06-01T00:00:00+02:00'])
    const { now, frozen } = (await (await fetch(`${server.url}/__patkit/clock`)).json()) as {
      now: string
      frozen: boolean
    }
    expect(frozen).toBe(false)
    expect(now >= '2030-05-31T22:00:00.000Z' && now < '2030-05-31T22:10:00.000Z').toBe(true)
  })

  it('--control-token guards the control API only', async () => {
    const server = await startServe(['--control-token', 's3t-control-token'], { extraLines: 3 })
    expect((await fetch(`${server.url}/__patkit/clock`)).status).toBe(401)
    expect(
      (
        await fetch(`${server.url}/__patkit/clock`, {
          headers: { 'x-patkit-control-token': 's3t-control-token' },
        })
      ).status,
    ).toBe(200)
    const [rootSecret] = secretsOf(server.lines)
    const self = await fetch(`${server.apiUrl}/personal_access_tokens/self`, {
      headers: { 'PRIVATE-TOKEN': rootSecret ?? '' },
    })
    expect(self.status).toBe(200)
  })

  it('with --random-seed, the secret a rotation mints after a reset is the one it minted after the start', async () => {
    const server = await startServe(['--random-seed', '11'], { extraLines: 3 })
    const [rootSecret] = secretsOf(server.lines)
    const rotate = async () => {
      const response = await fetch(`${server.apiUrl}/personal_access_tokens/self/rotate`, {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': rootSecret ?? '' },
      })
      const { id, token } = (await response.json()) as { id: number; token: string }
      return { id, token }
    }
    const first = await rotate()
    expect((await fetch(`${server.url}/__patkit/reset`, { method: 'POST' })).status).toBe(200)
    expect(await rotate()).toEqual(first)
  })

  it('reset brings the printed demo secrets back', async () => {
    const server = await startServe([], { extraLines: 3 })
    const [rootSecret] = secretsOf(server.lines)
    const rotate = await fetch(`${server.apiUrl}/personal_access_tokens/self/rotate`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': rootSecret ?? '' },
    })
    expect(rotate.status).toBe(200)
    expect((await fetch(`${server.url}/__patkit/reset`, { method: 'POST' })).status).toBe(200)
    const self = await fetch(`${server.apiUrl}/personal_access_tokens/self`, {
      headers: { 'PRIVATE-TOKEN': rootSecret ?? '' },
    })
    expect(await self.json()).toMatchObject({ id: 1, active: true })
  })

  it.each([
    [
      ['--control-token', 'a', '--control-token-file', 'f'],
      '--control-token and --control-token-file exclude each other',
    ],
    [['--no-control', '--control-token', 'a'], '--no-control and --control-token exclude each other'],
    [
      ['--no-control', '--control-token-file', 'f'],
      '--no-control and --control-token-file exclude each other',
    ],
    [
      ['--control-token-file', '/nonexistent/token'],
      '--control-token-file "/nonexistent/token" cannot be read',
    ],
    [['--allow-host', 'patkit:3000'], '--allow-host must be a host name or IP address without a port'],
    [['--allow-host', 'http://patkit/'], '--allow-host must be a host name or IP address without a port'],
    [['--clock', '2026-01-01'], '--clock must be an ISO 8601 instant with Z or an offset'],
    [['--clock', '2026-01-01T00:00:00'], '--clock must be an ISO 8601 instant with Z or an offset'],
    [['--random-seed', 'x'], '--random-seed must be an integer from 0 to 4294967295'],
    [['--control-token', ' '], '--control-token must not be empty'],
  ])('rejects %j with exit code 2', async (args, message) => {
    const run = runCli(['serve', ...args])
    expect((await run.exited()).code).toBe(2)
    expect(run.stderr()).toContain(message)
  })
})

describe('patkit serve: who can reach the control API', { timeout: SERVE_TIMEOUT }, () => {
  it.each([
    [['--host', '0.0.0.0'], '--host 0.0.0.0 is reachable from other machines'],
    [['--host', '::'], '--host :: is reachable from other machines'],
    [['--host', '192.0.2.1'], '--host 192.0.2.1 is reachable from other machines'],
    [['--database', 'sqlite::memory:'], 'a --database holds data of its own'],
    [['--allow-host', '*'], '--allow-host * lets any web site address it'],
  ])('%j without a control token refuses to start (exit 2)', async (args, why) => {
    const run = runCli(['serve', '--port', '0', ...args])
    expect((await run.exited()).code).toBe(2)
    expect(run.stderr()).toContain(
      `patkit serve: the control API (/__patkit/) ${NEEDS_TOKEN.replace('%s', why)}`,
    )
    expect(run.lines).toEqual([])
  })

  it('--database with a token from PATKIT_CONTROL_TOKEN, or with --no-control, starts', () => {
    const database = ['--database', 'sqlite::memory:']
    expect(
      parseServeArgs(database, { PATKIT_CONTROL_TOKEN: 'from-env-control-token' })._unsafeUnwrap(),
    ).toMatchObject({
      control: true,
      controlToken: 'from-env-control-token',
    })
    const off = parseServeArgs([...database, '--no-control'], {
      PATKIT_CONTROL_TOKEN: 'ignored',
    })._unsafeUnwrap()
    expect(off.control).toBe(false)
    expect(off.controlToken).toBeUndefined()
    expect(parseServeArgs(['--host', 'localhost'], {}).isOk()).toBe(true)
    expect(parseServeArgs(['--host', '127.0.0.2'], {}).isOk()).toBe(true)
    expect(parseServeArgs(['--host', '::1'], {}).isOk()).toBe(true)
  })

  it('the token: --control-token wins over PATKIT_CONTROL_TOKEN, --control-token-file too (one line break dropped)', () => {
    const file = join(dir, 'token.txt')
    writeFileSync(file, 'from-file-control-token\n')
    const env = { PATKIT_CONTROL_TOKEN: 'from-env-control-token' }
    expect(
      parseServeArgs(['--control-token', 'from-flag-control-token'], env)._unsafeUnwrap().controlToken,
    ).toBe('from-flag-control-token')
    expect(parseServeArgs(['--control-token-file', file], env)._unsafeUnwrap().controlToken).toBe(
      'from-file-control-token',
    )
    expect(parseServeArgs([], env)._unsafeUnwrap().controlToken).toBe('from-env-control-token')
    expect(parseServeArgs([], { PATKIT_CONTROL_TOKEN: '' })._unsafeUnwrap().controlToken).toBeUndefined()
    writeFileSync(join(dir, 'empty.txt'), '\n')
    expect(parseServeArgs(['--control-token-file', join(dir, 'empty.txt')], {})._unsafeUnwrapErr()).toBe(
      `--control-token-file ${JSON.stringify(join(dir, 'empty.txt'))} is empty`,
    )
  })

  it('--host 0.0.0.0 with a token from --control-token-file: the token is needed, a wrong one is 401', async () => {
    const file = join(dir, 'serve-token.txt')
    writeFileSync(file, 'file-control-token-1\n')
    const run = runCli(['serve', '--port', '0', '--host', '0.0.0.0', '--control-token-file', file])
    const [first] = await run.waitForLines(1)
    const port = /^patkit listening on http:\/\/0\.0\.0\.0:(\d+)$/.exec(first ?? '')?.[1]
    expect(port).toBeDefined()
    const url = `http://127.0.0.1:${port}`
    const clock = (token?: string) =>
      fetch(`${url}/__patkit/clock`, {
        headers: token === undefined ? {} : { 'x-patkit-control-token': token },
      })
    expect((await clock()).status).toBe(401)
    expect((await clock('file-control-token-2')).status).toBe(401)
    expect((await clock('file-control-token-1')).status).toBe(200)
    run.child.kill('SIGTERM')
    expect((await run.exited()).code).toBe(0)
  })

  it('a token from PATKIT_CONTROL_TOKEN guards the control API', async () => {
    const server = await startServe([], {
      env: { ...process.env, PATKIT_PEPPER: '', PATKIT_CONTROL_TOKEN: 'env-control-token-0001' },
    })
    expect((await fetch(`${server.url}/__patkit/clock`)).status).toBe(401)
    expect(
      (await fetch(`${server.url}/__patkit/clock`, { headers: { 'x-patkit-control-token': 'wrong' } }))
        .status,
    ).toBe(401)
    expect(
      (
        await fetch(`${server.url}/__patkit/clock`, {
          headers: { 'x-patkit-control-token': 'env-control-token-0001' },
        })
      ).status,
    ).toBe(200)
  })

  it("--no-control: /__patkit/ is GitLab's 404", async () => {
    const server = await startServe(['--no-control', '--database', 'sqlite::memory:'], { extraLines: 3 })
    const clock = await fetch(`${server.url}/__patkit/clock`)
    expect(clock.status).toBe(404)
    expect(await clock.text()).not.toContain('now')
  })

  it('a request for another Host is 403 and shows no secret; a text/plain write is 415', async () => {
    const server = await startServe([], { extraLines: 3 })
    const [rootSecret] = secretsOf(server.lines)
    const rebound = await getWithHost(server.url, 'evil.example')
    expect(rebound.status).toBe(403)
    expect(rebound.body).not.toContain(rootSecret ?? '(none)')
    expect((await getWithHost(server.url, `localhost:${new URL(server.url).port}`)).status).toBe(200)
    const planted = await fetch(`${server.url}/__patkit/tokens`, {
      method: 'POST',
      body: JSON.stringify({ user_id: 1, name: 'x', scopes: ['api'], token: 'glpat-planted-secret-001' }),
    })
    expect(planted.status).toBe(415)
    const used = await fetch(`${server.apiUrl}/personal_access_tokens/self`, {
      headers: { 'PRIVATE-TOKEN': 'glpat-planted-secret-001' },
    })
    expect(used.status).toBe(401)
  })

  it('--allow-host and the --public-url host are answered for; a warning says they have no token', async () => {
    const server = await startServe(
      ['--allow-host', 'patkit', '--public-url', 'https://gitlab.example.com'],
      {
        extraLines: 3,
      },
    )
    expect((await getWithHost(server.url, 'patkit:3000')).status).toBe(200)
    expect((await getWithHost(server.url, 'gitlab.example.com')).status).toBe(200)
    expect((await getWithHost(server.url, 'evil.example')).status).toBe(403)
    expect(server.stderr()).toContain(
      'patkit serve: warning: the control API (/__patkit/) answers for patkit, gitlab.example.com without a control token',
    )
  })
})
