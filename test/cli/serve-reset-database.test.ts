import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { MYSQL_URL, mariadb, POSTGRES_URL, postgres, uniquePrefix } from '../sql/support/databases.js'
import { describeDatabase } from '../sql/support/describe-database.js'
import { killAll, type Server, startServe } from './support/cli-process.js'

// Issue 23: `POST /__patkit/reset` and `PUT /__patkit/state` on `patkit serve --database` replace the
// rows under the table prefix in one transaction, and announce it on the cache's channel: another
// process on the same database serves nothing it cached before (neither a token the reset removed
// nor a revocation the reset undid).

const dir = mkdtempSync(join(tmpdir(), 'patkit-cli-reset-'))
afterEach(killAll)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const PEPPER = 'a-long-enough-pepper-for-these-tests-0123456789'
const CONTROL = 'control-token-for-reset-tests'
const SEEDED = 'glpat-cli-reset-seeded-0001'
const ADDED = 'glpat-cli-reset-added-00001'
const RESTORED = 'glpat-cli-reset-restored-01'

function seedFile(name: string): string {
  const path = join(dir, `${name}.json`)
  const token = { id: 100, user_id: 2, name: 'ci', scopes: ['api'], token: SEEDED, expires_at: '2099-01-01' }
  writeFileSync(path, JSON.stringify({ users: [{ id: 2, username: 'alice' }], tokens: [token] }))
  return path
}

const self = async (server: Server, secret: string, method = 'GET') => {
  const response = await fetch(`${server.apiUrl}/personal_access_tokens/self`, {
    method,
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

// Twice each: the second answer is the cache's.
async function statusEverywhere(servers: readonly Server[], secret: string): Promise<number[]> {
  const statuses: number[] = []
  for (const server of servers) statuses.push(await self(server, secret), await self(server, secret))
  return statuses
}

async function resetSeenEverywhere(database: string, extra: readonly string[], name: string): Promise<void> {
  const args = [
    '--database',
    database,
    ...extra,
    '--pepper',
    PEPPER,
    '--seed',
    seedFile(name),
    '--cache-strict',
    '--control-token',
    CONTROL,
  ]
  const a = await startServe(args, { extraLines: 1 })
  const b = await startServe(args)
  const servers = [a, b]
  const added = await control(a, 'POST', '/tokens', {
    user_id: 2,
    name: 'added',
    scopes: ['api'],
    token: ADDED,
  })
  expect(added.status).toBe(201)
  expect(await statusEverywhere(servers, ADDED)).toEqual([200, 200, 200, 200])
  expect(await self(b, SEEDED, 'DELETE')).toBe(204)
  expect(await statusEverywhere(servers, SEEDED)).toEqual([401, 401, 401, 401])

  expect(await control(a, 'POST', '/reset')).toEqual({
    status: 200,
    body: { users: 1, tokens: 1, groups: 0, projects: 0 },
  })
  expect(await statusEverywhere(servers, ADDED)).toEqual([401, 401, 401, 401])
  expect(await statusEverywhere(servers, SEEDED)).toEqual([200, 200, 200, 200])

  const restored = await control(b, 'PUT', '/state', {
    users: [{ id: 3, username: 'bob' }],
    tokens: [{ id: 7, user_id: 3, name: 'bob', scopes: ['api'], token: RESTORED }],
  })
  expect(restored).toEqual({ status: 200, body: { users: 1, tokens: 1, groups: 0, projects: 0 } })
  expect(await statusEverywhere(servers, SEEDED)).toEqual([401, 401, 401, 401])
  expect(await statusEverywhere(servers, RESTORED)).toEqual([200, 200, 200, 200])
  // A refused restore (an unknown user) changes nothing, on either process.
  const refused = await control(a, 'PUT', '/state', {
    tokens: [{ user_id: 99, name: 'x', scopes: ['api'], token: ADDED }],
  })
  expect(refused.status).toBe(400)
  expect(await statusEverywhere(servers, RESTORED)).toEqual([200, 200, 200, 200])
  for (const server of servers) expect(await server.stop()).toEqual({ code: 0, signal: null })
}

describe('patkit serve --database: reset and restore, two processes with a cache', () => {
  it('SQLite file: a reset and a restore by one process are seen by the other at once', {
    timeout: 60_000,
  }, async () => {
    await resetSeenEverywhere(`sqlite:${join(dir, 'reset.db')}`, [], 'sqlite')
  })
})

for (const [target, url, tag] of [
  [postgres, POSTGRES_URL, 'clireset_pg'],
  [mariadb, MYSQL_URL, 'clireset_my'],
] as const) {
  const prefix = uniquePrefix(tag)
  await describeDatabase(target, prefix, () => {
    it('a reset and a restore by one process are seen by the other at once', {
      timeout: 60_000,
    }, async () => {
      await resetSeenEverywhere(url, ['--table-prefix', prefix], tag)
    })
  })
}
