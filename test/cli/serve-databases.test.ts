import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import { afterAll, afterEach, expect, it } from 'vitest'
import { MYSQL_URL, mariadb, POSTGRES_URL, postgres } from '../sql/support/databases.js'
import { describeDatabase } from '../sql/support/describe-database.js'
import { killAll, SERVE_TIMEOUT, startServe } from './support/cli-process.js'

// `patkit serve --database` against the real servers: data survives a restart, and (PostgreSQL) a
// connection killed under the running server costs one request, not the process.

const dir = mkdtempSync(join(tmpdir(), 'patkit-cli-db-'))
afterEach(killAll)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const SECRET = 'glpat-cli-database-secret-01'

function seed(name: string): string {
  const path = join(dir, `${name}.json`)
  writeFileSync(
    path,
    JSON.stringify({
      users: [{ id: 2, username: 'alice' }],
      tokens: [{ id: 10, user_id: 2, name: 'ci', scopes: ['api'], token: SECRET, expires_at: '2099-01-01' }],
    }),
  )
  return path
}

const self = (apiUrl: string, secret: string) =>
  fetch(`${apiUrl}/personal_access_tokens/self`, { headers: { 'PRIVATE-TOKEN': secret } })

for (const [target, url, prefix] of [
  [postgres, POSTGRES_URL, 'cli_pg_'],
  [mariadb, MYSQL_URL, 'cli_my_'],
] as const) {
  await describeDatabase(target, prefix, () => {
    it('keeps tokens and rotations across a restart', { timeout: SERVE_TIMEOUT }, async () => {
      const args = [
        '--no-control',
        '--database',
        url,
        '--table-prefix',
        prefix,
        '--pepper',
        'cli-db-pepper',
        '--seed',
        seed(prefix),
      ]
      const first = await startServe(args, { extraLines: 1 })
      const rotated = await fetch(`${first.apiUrl}/personal_access_tokens/self/rotate`, {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': SECRET },
      })
      expect(rotated.status).toBe(200)
      const successor = (await rotated.json()) as { id: number; token: string }
      expect(await first.stop()).toEqual({ code: 0, signal: null })

      const second = await startServe(args, { extraLines: 1 })
      expect(second.lines[1]).toContain('(1 already stored)')
      expect((await self(second.apiUrl, SECRET)).status).toBe(401)
      const again = await self(second.apiUrl, successor.token)
      expect(again.status).toBe(200)
      expect(await again.json()).toMatchObject({ id: successor.id, user_id: 2, active: true })
      expect(await second.stop()).toEqual({ code: 0, signal: null })
    })
  })
}

await describeDatabase(postgres, 'cli_kill_', (db) => {
  it('a PostgreSQL connection killed under the server fails at most that request; the server goes on', {
    timeout: SERVE_TIMEOUT,
  }, async () => {
    const named = `${POSTGRES_URL}${POSTGRES_URL.includes('?') ? '&' : '?'}application_name=patkit_cli_kill`
    const args = [
      '--no-control',
      '--database',
      named,
      '--table-prefix',
      'cli_kill_',
      '--pepper',
      'p',
      '--seed',
      seed('kill'),
    ]
    const server = await startServe(args, { extraLines: 1 })
    expect((await self(server.apiUrl, SECRET)).status).toBe(200)
    const killed = await sql<{ killed: boolean }>`
      select pg_terminate_backend(pid) as killed from pg_stat_activity where application_name = 'patkit_cli_kill'`.execute(
      db,
    )
    expect(killed.rows.length).toBeGreaterThan(0)
    // Each dead pooled connection may fail one request (500) before the pool drops it; the process
    // must never go down (a crash would make fetch throw), and the server must recover.
    const statuses: number[] = []
    for (let attempt = 0; attempt < 20 && statuses.at(-1) !== 200; attempt++) {
      statuses.push((await self(server.apiUrl, SECRET)).status)
      if (statuses.at(-1) !== 200) await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(
      statuses.every((status) => status === 200 || status === 500),
      String(statuses),
    ).toBe(true)
    expect(statuses.at(-1)).toBe(200)
    expect(server.child.exitCode).toBeNull()
    expect(await server.stop()).toEqual({ code: 0, signal: null })
  })
})
