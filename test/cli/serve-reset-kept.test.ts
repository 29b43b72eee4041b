import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { MYSQL_URL, mariadb, POSTGRES_URL, postgres, uniquePrefix } from '../sql/support/databases.js'
import { describeDatabase } from '../sql/support/describe-database.js'
import { killAll, type Server, startServe } from './support/cli-process.js'

// Issue 28, item 1: `patkit serve --database` started over a kept database without `--seed` reset to
// an empty database (`{"users":0,"tokens":0,...}`, every token 401 after one click). A reset goes back
// to what the database held when the process started, rows patkit never seeded included.

const dir = mkdtempSync(join(tmpdir(), 'patkit-cli-reset-kept-'))
afterEach(killAll)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const PEPPER = 'a-long-enough-pepper-for-these-tests-0123456789'
const SEEDED = 'glpat-cli-kept-seeded-00001'
const ADDED = 'glpat-cli-kept-added-000001'
const CONTROL = 'control-token-for-kept-reset-tests'
// The most tokens a start snapshot holds (docs/cli.md).
const LIMIT = 10_000

const status = async (server: Server, secret: string) => {
  const response = await fetch(`${server.apiUrl}/personal_access_tokens/self`, {
    headers: { 'PRIVATE-TOKEN': secret },
  })
  await response.body?.cancel()
  return response.status
}

const control = async (server: Server, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${server.url}/__patkit${path}`, {
    method,
    headers: { 'x-patkit-control-token': CONTROL, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: response.status, body: (await response.json()) as unknown }
}

async function resetGoesBackToStart(database: string, extra: readonly string[], name: string): Promise<void> {
  const seed = join(dir, `${name}.json`)
  writeFileSync(
    seed,
    JSON.stringify({
      users: [
        { id: 1, username: 'root', admin: true },
        { id: 2, username: 'alice' },
      ],
      tokens: [{ id: 5, user_id: 1, name: 'ci', scopes: ['api'], token: SEEDED, expires_at: '2099-01-01' }],
    }),
  )
  const first = await startServe(
    ['--database', database, ...extra, '--pepper', PEPPER, '--control-token', CONTROL, '--seed', seed],
    {
      extraLines: 1,
    },
  )
  // A secret the API minted (root, an admin, for alice): the database keeps its digest only.
  const minted = await fetch(`${first.apiUrl}/users/2/personal_access_tokens`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': SEEDED, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'minted', scopes: ['api'] }),
  })
  expect(minted.status).toBe(201)
  const { token: mintedSecret } = (await minted.json()) as { token: string }
  expect(await first.stop()).toEqual({ code: 0, signal: null })

  const second = await startServe(
    ['--database', database, ...extra, '--pepper', PEPPER, '--control-token', CONTROL],
    { extraLines: 1 },
  )
  const before = await control(second, 'GET', '/state')
  const added = await control(second, 'POST', '/tokens', {
    user_id: 1,
    name: 'added',
    scopes: ['api'],
    token: ADDED,
  })
  expect(added.status).toBe(201)
  expect(await status(second, ADDED)).toBe(200)

  expect(await control(second, 'POST', '/reset')).toEqual({
    status: 200,
    body: { users: 2, tokens: 2, groups: 0, projects: 0 },
  })
  // The same rows as at start (before the secrets are used and their last_used_at moves).
  expect(await control(second, 'GET', '/state')).toEqual(before)
  expect([
    await status(second, SEEDED),
    await status(second, mintedSecret),
    await status(second, ADDED),
  ]).toEqual([200, 200, 401])
  expect(await second.stop()).toEqual({ code: 0, signal: null })
}

describe('patkit serve --database without --seed over a kept database', () => {
  it('SQLite file: a reset goes back to the rows the database held at start, minted secrets included', {
    timeout: 60_000,
  }, async () => {
    await resetGoesBackToStart(`sqlite:${join(dir, 'kept.db')}`, [], 'sqlite')
  })

  it(`above ${LIMIT} tokens at start, it warns at once and refuses a reset with 409, the data left alone`, {
    timeout: 120_000,
  }, async () => {
    const database = `sqlite:${join(dir, 'large.db')}`
    const seed = join(dir, 'large.json')
    const tokens = Array.from({ length: LIMIT + 1 }, (_, i) => ({
      user_id: 1,
      name: `t${i}`,
      scopes: ['read_api'],
      token: `glpat-cli-kept-bulk-${String(i).padStart(8, '0')}`,
    }))
    writeFileSync(seed, JSON.stringify({ users: [{ id: 1, username: 'root', admin: true }], tokens }))
    const server = await startServe(
      ['--database', database, '--pepper', PEPPER, '--control-token', CONTROL, '--seed', seed],
      { extraLines: 1, waitMs: 90_000 },
    )
    const reset = await control(server, 'POST', '/reset')
    expect(reset.status).toBe(409)
    // Written before the listening line: on stderr by now.
    expect(server.stderr()).toContain(
      `patkit serve: warning: POST /__patkit/reset is refused: reset goes back to the data the start held, and the start held ${LIMIT + 1} tokens, more than the ${LIMIT} a reset keeps in memory`,
    )
    expect(await status(server, 'glpat-cli-kept-bulk-00000000')).toBe(200)
    expect(await server.stop()).toEqual({ code: 0, signal: null })
  })
})

for (const [target, url, tag] of [
  [postgres, POSTGRES_URL, 'clikept_pg'],
  [mariadb, MYSQL_URL, 'clikept_my'],
] as const) {
  const prefix = uniquePrefix(tag)
  await describeDatabase(target, prefix, () => {
    it('a reset goes back to the rows the database held at start, minted secrets included', {
      timeout: 60_000,
    }, async () => {
      await resetGoesBackToStart(url, ['--table-prefix', prefix], tag)
    })
  })
}
