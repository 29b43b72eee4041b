import { type Kysely, sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { TokenStore } from '../../src/store/token-store.js'
import { errValue, okValue } from '../../src/testing/conformance/results.js'
import { draftFactory, tokenFixture, userFixture } from '../../src/testing/index.js'
import { migratedStore } from './support/conformance.js'
import {
  type DatabaseTarget,
  mariadb,
  pglite,
  postgres,
  sqliteMemory,
  uniquePrefix,
} from './support/databases.js'
import { describeDatabase } from './support/describe-database.js'

const NOW = new Date('2026-06-15T12:00:00.000Z')
const DOOMED = 'doomed-digest'

type Dialect = 'postgres' | 'mysql' | 'sqlite'

/** A trigger that makes the database itself reject inserting a token with the digest DOOMED. */
async function failDoomedInserts(db: Kysely<unknown>, dialect: Dialect, prefix: string, action: string) {
  const table = sql.table(`${prefix}tokens`)
  const fn = sql.raw(`${prefix}fail`)
  if (dialect === 'postgres') {
    await sql`create or replace function ${fn}() returns trigger language plpgsql as $$
      begin ${sql.raw(action)}; return new; end $$`.execute(db)
    await sql`drop trigger if exists ${fn} on ${table}`.execute(db)
    await sql`create trigger ${fn} before insert on ${table} for each row
      when (new.digest = ${sql.lit(DOOMED)}) execute function ${fn}()`.execute(db)
  } else if (dialect === 'mysql') {
    await sql`create trigger ${fn} before insert on ${table} for each row
      begin if new.digest = ${sql.lit(DOOMED)} then signal sqlstate '45000' set message_text = 'injected failure'; end if; end`.execute(
      db,
    )
  } else {
    await sql`create trigger ${fn} before insert on ${table} when new.digest = ${sql.lit(DOOMED)}
      begin select raise(abort, 'injected failure'); end`.execute(db)
  }
}

function describeFailures(target: DatabaseTarget, dialect: Dialect, tag: string): Promise<void> {
  const prefix = uniquePrefix(tag)
  return describeDatabase(target, prefix, (db) => {
    let store: TokenStore
    beforeAll(async () => {
      store = await migratedStore(db, prefix)
      await okValue(store.putUser(userFixture(1)))
      const action = dialect === 'postgres' ? "raise exception 'injected failure'" : ''
      await failDoomedInserts(db, dialect, prefix, action)
    })
    afterAll(async () => {
      if (dialect === 'postgres')
        await sql`drop function if exists ${sql.raw(`${prefix}fail`)} cascade`.execute(db)
    })

    it('a rotation whose successor insert fails leaves the old token active and stores nothing', async () => {
      const draft = draftFactory(`${tag}-half`)
      const old = await okValue(store.insert(draft()))
      const doomed = draft({ previousId: old.id, familyId: old.familyId, digest: DOOMED })
      const error = await errValue(store.rotate(old.id, doomed))
      expect(error).toMatchObject({ type: 'store_failure', operation: 'rotate' })
      expect(await okValue(store.findById(old.id))).toEqual(old)
      expect(await okValue(store.findByDigest(DOOMED))).toBeNull()
      // The rolled-back attempt left nothing behind: the next rotation succeeds.
      const next = await okValue(store.rotate(old.id, draft({ previousId: old.id, familyId: old.familyId })))
      expect(next.previousId).toBe(old.id)
    })

    it('a failing first-generation insert leaves no row behind', async () => {
      const draft = draftFactory(`${tag}-first`)
      const before = await okValue(
        store.list({ filter: {}, sort: 'id_asc', page: { page: 1, perPage: 100 }, now: NOW }),
      )
      expect(await errValue(store.insert(draft({ digest: DOOMED })))).toMatchObject({
        type: 'store_failure',
        operation: 'insert',
      })
      const after = await okValue(
        store.list({ filter: {}, sort: 'id_asc', page: { page: 1, perPage: 100 }, now: NOW }),
      )
      expect(after).toEqual(before)
    })

    it('a taken id or digest is a store_failure, not a rejection', async () => {
      const token = await okValue(store.importToken(tokenFixture(9000, { userId: 1 })))
      expect(
        await errValue(store.importToken(tokenFixture(9000, { userId: 1, digest: 'other' }))),
      ).toMatchObject({ type: 'store_failure', operation: 'importToken' })
      expect(
        await errValue(store.insert(draftFactory(`${tag}-dup`)({ digest: token.digest }))),
      ).toMatchObject({
        type: 'store_failure',
        operation: 'insert',
      })
    })

    it('every method of a store whose connection is gone answers store_failure', async () => {
      const own = target.open()
      const gone = await migratedStore(own, prefix)
      await own.destroy()
      const draft = draftFactory(`${tag}-gone`)
      if (gone.findByDigestWithUser === undefined)
        throw new Error('the SQL store implements findByDigestWithUser')
      const joined = gone.findByDigestWithUser
      const errors: Record<string, unknown> = {
        findByDigest: await errValue(gone.findByDigest('x')),
        findByDigestWithUser: await errValue(joined('x')),
        findById: await errValue(gone.findById(1)),
        list: await errValue(
          gone.list({ filter: {}, sort: 'id_asc', page: { page: 1, perPage: 20 }, now: NOW }),
        ),
        insert: await errValue(gone.insert(draft())),
        importToken: await errValue(gone.importToken(tokenFixture(9100))),
        revoke: await errValue(gone.revoke(1)),
        rotate: await errValue(gone.rotate(1, draft())),
        revokeDescendants: await errValue(gone.revokeDescendants(1, NOW)),
        touchLastUsed: await errValue(gone.touchLastUsed(1, NOW, 0, null)),
        putUser: await errValue(gone.putUser(userFixture(3))),
        findUser: await errValue(gone.findUser('root')),
      }
      for (const [operation, error] of Object.entries(errors)) {
        expect(error, operation).toMatchObject({ type: 'store_failure', operation })
      }
      // Opening and migrating a fresh PGlite (WebAssembly) takes seconds of CPU: over 20 s on a
      // machine as busy as the whole suite makes it.
    }, 60_000)
  })
}

await describeFailures(sqliteMemory, 'sqlite', 'fsqlite')
await describeFailures(pglite, 'postgres', 'fpglite')
await describeFailures(postgres, 'postgres', 'fpg')
await describeFailures(mariadb, 'mysql', 'fmy')

// A connection that dies in the middle of a rotation (the server ends the session between the revoke
// and the insert): the transaction dies with it, and the pool goes on with a fresh connection.
const killPrefix = uniquePrefix('fkill')
await describeDatabase(postgres, killPrefix, (db) => {
  let store: TokenStore
  beforeAll(async () => {
    store = await migratedStore(db, killPrefix)
    await okValue(store.putUser(userFixture(1)))
    await failDoomedInserts(db, 'postgres', killPrefix, 'perform pg_terminate_backend(pg_backend_pid())')
  })
  afterAll(async () => {
    await sql`drop function if exists ${sql.raw(`${killPrefix}fail`)} cascade`.execute(db)
  })

  it('a connection lost mid-rotation is a store_failure and nothing of the rotation persists', async () => {
    const draft = draftFactory('kill')
    const old = await okValue(store.insert(draft()))
    const error = await errValue(
      store.rotate(old.id, draft({ previousId: old.id, familyId: old.familyId, digest: DOOMED })),
    )
    expect(error).toMatchObject({ type: 'store_failure', operation: 'rotate' })
    expect(await okValue(store.findById(old.id))).toEqual(old)
    expect(await okValue(store.findByDigest(DOOMED))).toBeNull()
    const next = await okValue(store.rotate(old.id, draft({ previousId: old.id, familyId: old.familyId })))
    expect(next.previousId).toBe(old.id)
  })
})
