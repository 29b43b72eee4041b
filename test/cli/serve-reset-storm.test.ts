import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { Kysely, SqliteDialect, sql } from 'kysely'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { MYSQL_URL, mariadb, POSTGRES_URL, postgres, uniquePrefix } from '../sql/support/databases.js'
import { describeDatabase } from '../sql/support/describe-database.js'
import { raceRounds } from '../support/race-rounds.js'
import { killAll, type Server, startServe } from './support/cli-process.js'

// Issue 28: resets (`POST /__patkit/reset`) while 16 clients rotate and read through `patkit serve
// --database`. A reset is all or nothing against the rotations racing it: no answer is a 5xx, every
// family keeps at most one active token and every predecessor, and no secret minted before the last
// reset authenticates after it. On PostgreSQL a rotation the reset's DELETE waited on once survived
// it: the seed token and that successor both active, and the family's next rotation a 500.

const dir = mkdtempSync(join(tmpdir(), 'patkit-cli-storm-'))
afterEach(killAll)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const PEPPER = 'a-long-enough-pepper-for-these-tests-0123456789'
const CONTROL = 'control-token-for-reset-storm-tests'
const CLIENTS = 16
const RESETS = raceRounds(24, 4)
/** Client answers between two resets: the load each reset meets. */
const ANSWERS_PER_RESET = 24
const FIRST_ID = 100
const STORM_TIMEOUT = raceRounds(240_000, 60_000)

const seedSecret = (family: number) => `glpat-reset-storm-family-${String(family).padStart(4, '0')}`

function seedFile(name: string): string {
  const path = join(dir, `${name}.json`)
  writeFileSync(
    path,
    JSON.stringify({
      users: [{ id: 2, username: 'alice' }],
      tokens: Array.from({ length: CLIENTS }, (_, k) => ({
        id: FIRST_ID + k,
        user_id: 2,
        name: `family-${k}`,
        scopes: ['api'],
        token: seedSecret(k),
        expires_at: '2099-01-01',
      })),
    }),
  )
  return path
}

interface Row {
  readonly id: number
  readonly previous_id: number | null
  readonly family_id: number
  readonly revoked: boolean
}

async function rowsOf(db: Kysely<unknown>, prefix: string): Promise<Row[]> {
  const { rows } = await sql<Record<keyof Row, unknown>>`
    select id, previous_id, family_id, revoked from ${sql.table(`${prefix}tokens`)} order by id`.execute(db)
  return rows.map((row) => ({
    id: Number(row.id),
    previous_id: row.previous_id === null ? null : Number(row.previous_id),
    family_id: Number(row.family_id),
    revoked: row.revoked === true || Number(row.revoked) === 1,
  }))
}

/**
 * The rows as the in-memory fake exports them (`GET /__patkit/state`): its family is its chain's
 * first token (a chain whose predecessor is missing ends at the missing id, which the check names).
 */
async function rowsFromState(server: Server): Promise<Row[]> {
  const response = await fetch(`${server.url}/__patkit/state`, {
    headers: { 'x-patkit-control-token': CONTROL },
  })
  expect(response.status).toBe(200)
  const { tokens } = (await response.json()) as {
    tokens: { id: number; previous_id: number | null; revoked: boolean }[]
  }
  const byId = new Map(tokens.map((token) => [token.id, token]))
  const familyOf = (id: number): number => {
    const previous = byId.get(id)?.previous_id ?? null
    return previous === null || !byId.has(previous) ? (previous ?? id) : familyOf(previous)
  }
  return tokens.map((token) => ({
    id: token.id,
    previous_id: token.previous_id,
    family_id: familyOf(token.id),
    revoked: token.revoked,
  }))
}

/** One client's family: the secret and id it holds now (its seed token's after a reset took them). */
interface Held {
  secret: string
  id: number
}

async function storm(servers: readonly Server[], rows: () => Promise<Row[]>): Promise<void> {
  const statuses = new Map<number, number>()
  const failures: string[] = []
  let answers = 0
  // A 5xx is kept with its body: what failed, for the report.
  const answered = async (response: Response, what: string) => {
    answers += 1
    const { status } = response
    statuses.set(status, (statuses.get(status) ?? 0) + 1)
    if (status >= 500) failures.push(`${what}: ${status} ${await response.text()}`)
  }
  // Secrets a rotation answered with, and whether the answer came before the last reset was sent
  // (then its rotation committed before that reset began, and the reset must have removed it).
  const minted: { secret: string; beforeLastReset: boolean }[] = []
  let lastResetSent = false
  let stopping = false

  const client = async (k: number) => {
    const held: Held = { secret: seedSecret(k), id: FIRST_ID + k }
    for (let step = 0; !stopping; step++) {
      const server = servers[(k + step) % servers.length] as Server
      const headers = { 'PRIVATE-TOKEN': held.secret }
      const kind = step % 4
      if (kind === 0 || kind === 2) {
        const route = kind === 0 ? 'self/rotate' : `${held.id}/rotate`
        const response = await fetch(`${server.apiUrl}/personal_access_tokens/${route}`, {
          method: 'POST',
          headers,
        })
        await answered(response, `POST ${route}`)
        if (response.status === 200) {
          const { token, id } = (await response.json()) as { token: string; id: number }
          minted.push({ secret: token, beforeLastReset: !lastResetSent })
          held.secret = token
          held.id = id
          continue
        }
        if (!response.bodyUsed) await response.body?.cancel()
      } else {
        const route = kind === 1 ? 'self' : '?per_page=100'
        const response = await fetch(`${server.apiUrl}/personal_access_tokens/${route}`, { headers })
        await answered(response, `GET ${route}`)
        if (!response.bodyUsed) await response.body?.cancel()
        if (response.status === 200) continue
      }
      // Refused: a reset took the family back to its seed token (or a rotation raced one).
      held.secret = seedSecret(k)
      held.id = FIRST_ID + k
    }
  }

  const resetter = async () => {
    for (let round = 0; round < RESETS; round++) {
      const target = answers + ANSWERS_PER_RESET
      while (answers < target) await new Promise((resolve) => setImmediate(resolve))
      if (round === RESETS - 1) lastResetSent = true
      const server = servers[round % servers.length] as Server
      const response = await fetch(`${server.url}/__patkit/reset`, {
        method: 'POST',
        headers: { 'x-patkit-control-token': CONTROL },
      })
      await response.body?.cancel()
      if (response.status !== 200) failures.push(`reset ${round}: ${response.status}`)
    }
    // The load goes on for a while after the last reset, then stops.
    const target = answers + ANSWERS_PER_RESET
    while (answers < target) await new Promise((resolve) => setImmediate(resolve))
    stopping = true
  }

  await Promise.all([resetter(), ...Array.from({ length: CLIENTS }, (_, k) => client(k))])
  const stderr = servers.map((server) => server.stderr()).join('\n')
  expect(failures, `${JSON.stringify([...statuses])}\n${stderr}`).toEqual([])
  expect([...statuses.keys()].every((status) => [200, 401, 404].includes(status))).toBe(true)
  expect(statuses.get(200)).toBeGreaterThan(0)

  // The families: one active token at most, every predecessor present, no token twice a successor
  // (the unique index says so), and only the seed's families.
  const all = await rows()
  const ids = new Set(all.map((row) => row.id))
  for (const row of all) {
    if (row.previous_id !== null) expect(ids, `predecessor of ${row.id}`).toContain(row.previous_id)
    expect(row.family_id - FIRST_ID).toBeGreaterThanOrEqual(0)
    expect(row.family_id - FIRST_ID).toBeLessThan(CLIENTS)
  }
  const active = new Map<number, number>()
  for (const row of all.filter((r) => !r.revoked))
    active.set(row.family_id, (active.get(row.family_id) ?? 0) + 1)
  expect([...active].filter(([, count]) => count > 1)).toEqual([])

  // Every secret minted before the last reset is gone, on every server.
  const before = minted.filter((entry) => entry.beforeLastReset)
  expect(before.length).toBeGreaterThan(0)
  const authenticated: string[] = []
  for (const { secret } of before) {
    for (const server of servers) {
      const response = await fetch(`${server.apiUrl}/personal_access_tokens/self`, {
        headers: { 'PRIVATE-TOKEN': secret },
      })
      await response.body?.cancel()
      if (response.status !== 401) authenticated.push(`${secret}: ${response.status}`)
    }
  }
  expect(authenticated).toEqual([])
  for (const server of servers) expect(await server.stop()).toEqual({ code: 0, signal: null })
}

function serveArgs(database: string, extra: readonly string[], name: string): string[] {
  return [
    '--database',
    database,
    ...extra,
    '--pepper',
    PEPPER,
    '--seed',
    seedFile(name),
    '--control-token',
    CONTROL,
  ]
}

const title = `${CLIENTS} clients rotating and reading through ${RESETS} resets: no 5xx, every family whole`

describe('patkit serve: a reset storm', () => {
  it(`in memory: ${title}`, { timeout: STORM_TIMEOUT }, async () => {
    const server = await startServe(serveArgs('', [], 'memory').slice(2), { extraLines: 1 })
    await storm([server], () => rowsFromState(server))
  })

  it(`SQLite file: ${title}`, { timeout: STORM_TIMEOUT }, async () => {
    const path = join(dir, 'storm.db')
    const server = await startServe(serveArgs(`sqlite:${path}`, [], 'sqlite'), { extraLines: 1 })
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(path) }) })
    try {
      await storm([server], () => rowsOf(db, 'patkit_'))
    } finally {
      await db.destroy()
    }
  })
})

for (const [target, url, tag, instances] of [
  [postgres, POSTGRES_URL, 'storm_pg', 1],
  [postgres, POSTGRES_URL, 'storm_pgc', 2],
  [mariadb, MYSQL_URL, 'storm_my', 1],
] as const) {
  const prefix = uniquePrefix(tag)
  await describeDatabase(target, prefix, (db) => {
    const cached = instances > 1 ? `, ${instances} --cache-strict instances` : ''
    it(`${title}${cached}`, { timeout: STORM_TIMEOUT }, async () => {
      const args = serveArgs(
        url,
        ['--table-prefix', prefix, ...(instances > 1 ? ['--cache-strict'] : [])],
        tag,
      )
      const servers: Server[] = []
      // One after the other: the first migrates and seeds, the others find the data there.
      for (let n = 0; n < instances; n++)
        servers.push(await startServe(args, { extraLines: n === 0 ? 1 : 0 }))
      await storm(servers, () => rowsOf(db, prefix))
    })
  })
}
