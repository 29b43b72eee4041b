import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { sql } from 'kysely'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { MYSQL_URL, mariadb, POSTGRES_URL, postgres, uniquePrefix } from '../sql/support/databases.js'
import { describeDatabase } from '../sql/support/describe-database.js'
import { killAll, SERVE_TIMEOUT, type Server, startServe } from './support/cli-process.js'

// Several `patkit serve` processes on one database, as a test suite run in parallel or an operator
// scaling out does it: starting together, and serving the same families at once.

const dir = mkdtempSync(join(tmpdir(), 'patkit-cli-conc-'))
afterEach(killAll)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const PEPPER = 'a-long-enough-pepper-for-these-tests-0123456789'
const STARTERS = 4
const FAMILIES = 12

const secretOf = (family: number) => `glpat-concurrent-family-${String(family).padStart(4, '0')}`

function seedFile(name: string): string {
  const path = join(dir, `${name}.json`)
  writeFileSync(
    path,
    JSON.stringify({
      users: [
        { id: 1, username: 'root', admin: true },
        { id: 2, username: 'alice' },
      ],
      tokens: Array.from({ length: FAMILIES }, (_, k) => ({
        id: 100 + k,
        user_id: 2,
        name: `family-${k}`,
        scopes: ['api'],
        token: secretOf(k),
        expires_at: '2099-01-01',
      })),
    }),
  )
  return path
}

/** Starts `count` servers with the same arguments at the same moment. */
function startTogether(count: number, args: readonly string[]): Promise<Server[]> {
  return Promise.all(Array.from({ length: count }, () => startServe(args, { extraLines: 1 })))
}

async function expectSeededOnce(servers: readonly Server[], path: string): Promise<void> {
  for (const server of servers) {
    expect(server.lines[1]).toMatch(
      new RegExp(`^seeded 2 users and \\d+ tokens? from ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
    )
  }
  const [first] = servers
  const listed = await fetch(`${first?.apiUrl}/personal_access_tokens?per_page=100`, {
    headers: { 'PRIVATE-TOKEN': secretOf(0) },
  })
  expect(listed.status).toBe(200)
  expect(((await listed.json()) as { id: number }[]).map((t) => t.id)).toEqual(
    Array.from({ length: FAMILIES }, (_, k) => 100 + k),
  )
  for (const server of servers) expect(await server.stop()).toEqual({ code: 0, signal: null })
}

describe('several patkit serve processes starting together on one database', {
  timeout: SERVE_TIMEOUT,
}, () => {
  it(`SQLite: ${STARTERS} starts with one --seed all succeed and seed once`, async () => {
    const path = seedFile('sqlite-starts')
    const database = `sqlite:${join(dir, 'starts.db')}`
    const servers = await startTogether(STARTERS, [
      '--no-control',
      '--database',
      database,
      '--pepper',
      PEPPER,
      '--seed',
      path,
    ])
    await expectSeededOnce(servers, path)
  })
})

for (const [target, url, tag] of [
  [postgres, POSTGRES_URL, 'pgstart'],
  [mariadb, MYSQL_URL, 'mystart'],
] as const) {
  const prefix = uniquePrefix(tag)
  await describeDatabase(target, prefix, (db) => {
    it(`${STARTERS} starts with one --seed all succeed and seed once`, {
      timeout: SERVE_TIMEOUT,
    }, async () => {
      const path = seedFile(tag)
      const args = [
        '--no-control',
        '--database',
        url,
        '--table-prefix',
        prefix,
        '--pepper',
        PEPPER,
        '--seed',
        path,
      ]
      const servers = await startTogether(STARTERS, args)
      await expectSeededOnce(servers, path)
      const users = await sql<{
        n: unknown
      }>`select count(*) as n from ${sql.table(`${prefix}users`)}`.execute(db)
      expect(Number(users.rows[0]?.n)).toBe(2)
    })
  })
}

interface FamilyRow {
  family_id: number
  active: number
  total: number
}

describe('two patkit serve processes on one SQLite file', () => {
  it('rotations, reuse and revocations racing through both keep every invariant, with no 5xx', {
    timeout: 60_000,
  }, async () => {
    const path = join(dir, 'shared.db')
    const seed = seedFile('shared')
    const [a, b] = await startTogether(2, [
      '--no-control',
      '--database',
      `sqlite:${path}`,
      '--pepper',
      PEPPER,
      '--seed',
      seed,
    ])
    if (a === undefined || b === undefined) throw new Error('two servers expected')
    const statuses = new Map<number, number>()
    const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1)
    const call = async (server: Server, method: string, route: string, secret: string) => {
      const response = await fetch(`${server.apiUrl}/personal_access_tokens/${route}`, {
        method,
        headers: { 'PRIVATE-TOKEN': secret },
      })
      count(response.status)
      return response
    }
    // Each family: its first secret rotated through both servers at once (one wins, the other is a
    // reuse of a revoked token: detection revokes the winner's successor), the winner's successor
    // rotated again, and a revocation of it, all overlapping across the two processes.
    await Promise.all(
      Array.from({ length: FAMILIES }, async (_, k) => {
        const [left, right] = k % 2 === 0 ? [a, b] : [b, a]
        const rotations = await Promise.all([
          call(left, 'POST', 'self/rotate', secretOf(k)),
          call(right, 'POST', 'self/rotate', secretOf(k)),
          call(right, 'GET', 'self', secretOf(k)),
        ])
        const winner = rotations.slice(0, 2).find((r) => r.status === 200)
        if (winner === undefined) return
        const { token } = (await winner.json()) as { token: string }
        await Promise.all([
          call(right, 'POST', 'self/rotate', token),
          call(left, 'DELETE', 'self', token),
          call(left, 'GET', `?per_page=100`, token),
        ])
      }),
    )
    for (const server of [a, b]) expect(await server.stop()).toEqual({ code: 0, signal: null })

    const server5xx = [...statuses].filter(([status]) => status >= 500)
    expect(server5xx, JSON.stringify([...statuses])).toEqual([])
    expect([...statuses.keys()].every((status) => [200, 204, 400, 401].includes(status))).toBe(true)
    // Both orders of a race were seen: rotations won, and presented-again secrets were refused.
    expect(statuses.get(200)).toBeGreaterThan(0)
    expect(statuses.get(401)).toBeGreaterThan(0)
    const file = new Database(path, { readonly: true })
    try {
      const families = file
        .prepare(
          `select family_id, sum(case when revoked then 0 else 1 end) as active, count(*) as total
           from patkit_tokens group by family_id`,
        )
        .all() as FamilyRow[]
      expect(families).toHaveLength(FAMILIES)
      for (const family of families) expect(family.active, JSON.stringify(family)).toBeLessThanOrEqual(1)
      const forks = file
        .prepare(
          'select previous_id from patkit_tokens where previous_id is not null group by previous_id having count(*) > 1',
        )
        .all()
      expect(forks).toEqual([])
    } finally {
      file.close()
    }
  })
})
