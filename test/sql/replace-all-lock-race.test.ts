import { setTimeout as sleep } from 'node:timers/promises'
import { type Kysely, sql } from 'kysely'
import { expect, it } from 'vitest'
import type { Token } from '../../src/domain/token.js'
import { migrate, sqlStore } from '../../src/sql/index.js'
import { draftFactory, userFixture } from '../../src/testing/fixtures.js'
import { type DatabaseTarget, mariadb, postgres, uniquePrefix } from './support/databases.js'
import { describeDatabase } from './support/describe-database.js'

// A reset (replaceAll) waits on a row lock another connection holds; a rotation runs meanwhile; the
// lock is released. Whichever order the database puts them in, the reset is all or nothing: the
// rotation either lands in the old data (and is deleted with it) or in the new data (and the family
// has one active token). On PostgreSQL, READ COMMITTED once let the deletes miss the successor: the
// seed token and the successor minted before the reset were both active afterwards.
//
// Servers only: the lock is held from a second connection of the pool. PGlite has one connection,
// and better-sqlite3 waits on a lock synchronously (the whole process stops with it); the reset storm
// (test/cli/serve-reset-storm.test.ts) covers SQLite, whose BEGIN IMMEDIATE serialises the writers.

/** How many statements touching the prefix's tables wait on a lock now. */
type Waiting = (db: Kysely<unknown>, prefix: string) => Promise<number>

const postgresWaiting: Waiting = async (db, prefix) => {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from pg_stat_activity
    where wait_event_type = 'Lock' and position(${prefix} in query) > 0`.execute(db)
  return rows[0]?.n ?? 0
}

const mariadbWaiting: Waiting = async (db, prefix) => {
  const { rows } = await sql<{ n: number | string }>`
    select count(*) as n from information_schema.innodb_trx
    where trx_state = 'LOCK WAIT' and locate(${prefix}, trx_query) > 0`.execute(db)
  return Number(rows[0]?.n ?? 0)
}

/**
 * Polls until `done()`: the statements this test started are where it needs them (no timing asserted).
 * Every 150 ms: InnoDB refreshes its `information_schema` copy of the transactions only when the last
 * read is more than 100 ms old, so faster polling reads the same stale copy forever.
 */
async function until(done: () => Promise<boolean>): Promise<void> {
  while (!(await done())) await sleep(150)
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

function register(target: DatabaseTarget, tag: string, waiting: Waiting): Promise<void> {
  const prefix = uniquePrefix(tag)
  return describeDatabase(target, prefix, (db) => {
    it('a rotation while a reset waits on a row lock leaves one active token per family', async () => {
      const migrated = await migrate(db, { tablePrefix: prefix })
      if (migrated.isErr()) throw migrated.error.cause
      const store = sqlStore(db, { tablePrefix: prefix })
      const draft = draftFactory('lock-race')
      const seed: Token[] = [1, 2, 3].map((id) => ({
        ...draft({ userId: 1, name: `seed-${id}`, digest: `seed-digest-${id}` }),
        id,
        familyId: id,
      }))
      const contents = { users: [userFixture(1)], tokens: seed, groups: [], projects: [] }
      expect((await store.replaceAll?.(contents))?.isOk()).toBe(true)

      // Another connection holds token 1's row lock until `release`.
      let release = () => {}
      const released = new Promise<void>((resolve) => {
        release = resolve
      })
      let locked = () => {}
      const holding = new Promise<void>((resolve) => {
        locked = resolve
      })
      const holder = db.transaction().execute(async (trx) => {
        await sql`select id from ${sql.table(`${prefix}tokens`)} where id = 1 for update`.execute(trx)
        locked()
        await released
      })
      await holding

      const reset = store.replaceAll?.(contents)
      await until(async () => (await waiting(db, prefix)) >= 1)
      let settled = false
      const rotation = (async () => {
        const outcome = await store.rotate(
          3,
          draft({ userId: 1, name: 'seed-3', previousId: 3, familyId: 3 }),
        )
        settled = true
        return outcome
      })()
      // The rotation either finishes (the reset did not stop it) or waits behind the reset.
      await until(async () => settled || (await waiting(db, prefix)) >= 2)
      release()
      await holder
      expect((await reset)?.isOk()).toBe(true)
      const successor = (await rotation)._unsafeUnwrap()

      const rows = await rowsOf(db, prefix)
      const ids = new Set(rows.map((row) => row.id))
      for (const row of rows) {
        if (row.previous_id !== null) expect(ids, `predecessor of ${row.id}`).toContain(row.previous_id)
      }
      const active = rows.filter((row) => !row.revoked)
      expect(active.map((row) => row.family_id).sort()).toEqual([1, 2, 3])
      // Rotated before the reset (then deleted with the old data) or after it (then kept, in family 3).
      const after = rows.find((row) => row.id === successor.id)
      if (after === undefined)
        expect(rows).toEqual(seed.map((token) => expect.objectContaining({ id: token.id, revoked: false })))
      else expect(after).toEqual({ id: successor.id, previous_id: 3, family_id: 3, revoked: false })
      // The family goes on: the active token of family 3 rotates.
      const head = active.find((row) => row.family_id === 3)
      const next = await store.rotate(
        head?.id ?? 0,
        draft({ userId: 1, name: 'seed-3', previousId: head?.id ?? 0, familyId: 3 }),
      )
      expect(next.isOk()).toBe(true)
    })
  })
}

await register(postgres, 'ralp', postgresWaiting)
await register(mariadb, 'ralm', mariadbWaiting)
