import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { killAll, SERVE_TIMEOUT, type Server, startServe } from './support/cli-process.js'

// Issue 28: `serve --random-seed N` over a kept `--database` draws, after a restart, the secrets and
// bot usernames it drew before: the first token (duplicate digest) and the first project access token
// (duplicate bot username) created after the restart were a 500. A key drawn again is drawn anew.

const dir = mkdtempSync(join(tmpdir(), 'patkit-cli-random-seed-'))
afterEach(killAll)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The secret a fresh database's first start printed for a demo user (`root (admin): glpat-...`). */
function printed(server: Server, user: string): string {
  const line = server.lines.find((l) => l.startsWith(`${user}: `) || l.startsWith(`${user} (`))
  const secret = line?.replace(/^.*: /, '')
  if (secret === undefined) throw new Error(`no secret printed for ${user}: ${server.lines.join('\n')}`)
  return secret
}

const post = (server: Server, path: string, secret: string, body: unknown) =>
  fetch(`${server.apiUrl}${path}`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': secret, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })

const personalToken = (server: Server, root: string, name: string) =>
  post(server, '/users/2/personal_access_tokens', root, { name, scopes: ['api'] })
const projectToken = (server: Server, alice: string, name: string) =>
  post(server, '/projects/1/access_tokens', alice, {
    name,
    scopes: ['api'],
    access_level: 40,
    expires_at: '2026-06-01',
  })

const serveArgs = (database: string) => [
  '--no-control',
  '--clock',
  '2026-01-01T00:00:00Z',
  '--random-seed',
  '28',
  '--database',
  `sqlite:${join(dir, database)}`,
]

/** Runs `create` on a first start and again after a restart with the same seed; both answer 201. */
async function createdAcrossRestart(
  database: string,
  create: (server: Server, secrets: { root: string; alice: string }, name: string) => Promise<Response>,
): Promise<void> {
  const args = serveArgs(database)
  const first = await startServe(args, { extraLines: 6 })
  const secrets = { root: printed(first, 'root'), alice: printed(first, 'alice') }
  const before = await create(first, secrets, 'before')
  expect(before.status, await before.clone().text()).toBe(201)
  const stored = (await before.json()) as { token: string }
  expect(await first.stop()).toEqual({ code: 0, signal: null })

  const second = await startServe(args, { extraLines: 1 })
  const after = await create(second, secrets, 'after')
  expect(after.status, await after.clone().text()).toBe(201)
  const made = (await after.json()) as { token: string }
  expect(made.token).not.toBe(stored.token)
  for (const secret of [stored.token, made.token]) {
    const self = await fetch(`${second.apiUrl}/personal_access_tokens/self`, {
      headers: { 'PRIVATE-TOKEN': secret },
    })
    expect(self.status).toBe(200)
  }
  expect(await second.stop()).toEqual({ code: 0, signal: null })
}

describe('patkit serve --random-seed over a kept --database', { timeout: 2 * SERVE_TIMEOUT }, () => {
  it('the first personal access token created after a restart is 201, not a duplicate digest', async () => {
    await createdAcrossRestart('pat.db', (server, { root }, name) => personalToken(server, root, name))
  })

  it('the first project access token created after a restart is 201, not a duplicate bot username', async () => {
    await createdAcrossRestart('bot.db', (server, { alice }, name) => projectToken(server, alice, name))
  })

  it("the first rotation after a restart is 200, not a duplicate digest for the successor's secret", async () => {
    const rotate = async (server: Server, secret: string): Promise<string> => {
      const rotated = await post(server, '/personal_access_tokens/self/rotate', secret, {})
      expect(rotated.status, await rotated.clone().text()).toBe(200)
      const { token } = (await rotated.json()) as { token: string }
      expect(token).not.toBe(secret)
      return token
    }
    const first = await startServe(serveArgs('rotate.db'), { extraLines: 6 })
    // The first start's first secret drawn by the API: the restart's first rotation draws it again.
    const successor = await rotate(first, printed(first, 'alice'))
    expect(await first.stop()).toEqual({ code: 0, signal: null })

    const second = await startServe(serveArgs('rotate.db'), { extraLines: 1 })
    const next = await rotate(second, successor)
    const self = await fetch(`${second.apiUrl}/personal_access_tokens/self`, {
      headers: { 'PRIVATE-TOKEN': next },
    })
    expect(self.status).toBe(200)
    expect(await second.stop()).toEqual({ code: 0, signal: null })
  })

  it('the first service account created after a restart is 201, not a taken username', async () => {
    const create = async (server: Server, root: string): Promise<string> => {
      const created = await post(server, '/service_accounts', root, {})
      expect(created.status, await created.clone().text()).toBe(201)
      return ((await created.json()) as { username: string }).username
    }
    const first = await startServe(serveArgs('service-account.db'), { extraLines: 6 })
    const root = printed(first, 'root')
    const before = await create(first, root)
    expect(await first.stop()).toEqual({ code: 0, signal: null })

    const second = await startServe(serveArgs('service-account.db'), { extraLines: 1 })
    const after = await create(second, root)
    expect(after).toMatch(/^service_account_[0-9a-f]{32}$/)
    expect(after).not.toBe(before)
    expect(await second.stop()).toEqual({ code: 0, signal: null })
  })
})
