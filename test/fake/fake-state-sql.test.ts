import type { Kysely } from 'kysely'
import { afterAll, afterEach, expect, it } from 'vitest'
import { manualClock } from '../../src/domain/clock.js'
import { createFakeGitLab, type FakeGitLab } from '../../src/fake/fake-gitlab.js'
import { migrate, sqlStore } from '../../src/sql/index.js'
import {
  type DatabaseTarget,
  dropTables,
  mariadb,
  pglite,
  postgres,
  sqliteMemory,
  uniquePrefix,
} from '../sql/support/databases.js'
import { describeDatabase } from '../sql/support/describe-database.js'

// Issue 23: reset and restore on a SQL store replace the data under the store's table prefix in one
// transaction (its `replaceAll`), checked whole first; other prefixes' tables are never touched.

const SECRET = 'glpat-sql-reset-start-0001'
const ADDED = 'glpat-sql-reset-added-0001'
const OTHER = 'glpat-sql-reset-other-0001'
const START = '2026-01-01T00:00:00.000Z'

const running: FakeGitLab[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((gitlab) => gitlab.close()))
})

async function fakeOn(db: Kysely<unknown>, tablePrefix: string, secret = SECRET): Promise<FakeGitLab> {
  const migrated = await migrate(db, { tablePrefix })
  if (migrated.isErr()) throw migrated.error.cause
  const gitlab = await createFakeGitLab({
    store: sqlStore(db, { tablePrefix }),
    clock: manualClock(new Date(START)),
    tokens: [{ id: 3, user_id: 2, name: 'ci', scopes: ['api'], token: secret }],
  })
  running.push(gitlab)
  return gitlab
}

async function addToken(gitlab: FakeGitLab, token: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${gitlab.url}/__patkit/tokens`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(token),
  })
  expect(response.status).toBe(201)
  await response.body?.cancel()
}

async function self(gitlab: FakeGitLab, secret: string): Promise<number> {
  const response = await fetch(`${gitlab.apiUrl}/personal_access_tokens/self`, {
    headers: { 'PRIVATE-TOKEN': secret },
  })
  await response.body?.cancel()
  return response.status
}

function register(target: DatabaseTarget, tag: string): Promise<void> {
  const prefix = uniquePrefix(tag)
  const other = `${prefix}o_`
  return describeDatabase(target, prefix, (db) => {
    afterAll(() => dropTables(db, other))
    it('a reset writes the start data again, the data added since gone', async () => {
      const gitlab = await fakeOn(db, prefix)
      const start = await gitlab.snapshot()
      await addToken(gitlab, { user_id: 1, name: 'added', scopes: ['api'], token: ADDED })
      expect(await self(gitlab, ADDED)).toBe(200)
      await gitlab.reset()
      expect(await gitlab.snapshot()).toEqual(start)
      expect(await self(gitlab, ADDED)).toBe(401)
      expect(await self(gitlab, SECRET)).toBe(200)
    })

    it('a restore replaces the data; a refused one leaves it as it was', async () => {
      const gitlab = await fakeOn(db, prefix)
      const start = await gitlab.snapshot()
      await gitlab.restore({
        users: [{ id: 5, username: 'eve' }],
        tokens: [{ id: 40, user_id: 5, name: 'eve', scopes: ['read_api'], token: ADDED }],
      })
      expect(await self(gitlab, ADDED)).toBe(200)
      expect(await self(gitlab, SECRET)).toBe(401)
      const restored = await gitlab.snapshot()
      // Two tokens with one secret: refused by the check, after the old rows were deleted in the
      // transaction, which rolls back.
      await expect(
        gitlab.restore({
          users: [{ id: 6, username: 'mallory' }],
          tokens: [
            { id: 1, user_id: 6, name: 'a', scopes: ['api'], token: OTHER },
            { id: 2, user_id: 6, name: 'b', scopes: ['api'], token: OTHER },
          ],
        }),
      ).rejects.toThrow(/restore/)
      expect(await gitlab.snapshot()).toEqual(restored)
      expect(await self(gitlab, ADDED)).toBe(200)
      await gitlab.restore(start)
      expect(await gitlab.snapshot()).toEqual(start)
    })

    it("a reset leaves another table prefix's data alone", async () => {
      const gitlab = await fakeOn(db, prefix)
      const neighbour = await fakeOn(db, other, OTHER)
      await addToken(neighbour, { user_id: 1, name: 'kept', scopes: ['api'], token: ADDED })
      const kept = await neighbour.snapshot()
      await gitlab.reset()
      expect(await neighbour.snapshot()).toEqual(kept)
      expect(await self(neighbour, OTHER)).toBe(200)
    })
  })
}

await register(sqliteMemory, 'frs')
await register(pglite, 'frg')
await register(postgres, 'frp')
await register(mariadb, 'frm')
