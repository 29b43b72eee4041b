import Database from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import { afterEach, describe, expect, it } from 'vitest'
import { type CachedStore, cachedStore, localInvalidation } from '../../src/cache/index.js'
import { migrate, sqlStore } from '../../src/sql/index.js'
import type { TokenStore } from '../../src/store/index.js'
import { draftFactory, userFixture } from '../../src/testing/fixtures.js'

// Two caches over one SQL store, as two instances on one database: a replaceAll through one drops
// everything the other cached (a flush-all on the channel), a token it removed and a revocation it undid.

const open: (() => Promise<void>)[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((close) => close()))
})

async function twoCaches(): Promise<{ store: TokenStore; a: CachedStore; b: CachedStore }> {
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) })
  const migrated = await migrate(db)
  if (migrated.isErr()) throw migrated.error.cause
  const store = sqlStore(db)
  const channel = localInvalidation()
  const a = cachedStore(store, { invalidation: channel })
  const b = cachedStore(store, { invalidation: channel })
  open.push(async () => {
    await a.close()
    await b.close()
    await db.destroy()
  })
  return { store, a, b }
}

describe('replaceAll through a cache', () => {
  it('every cache on the channel drops what it held', async () => {
    const { store, a, b } = await twoCaches()
    const draft = draftFactory()
    await store.putUser(userFixture(1))
    const removed = (await store.insert(draft({ userId: 1, name: 'removed' })))._unsafeUnwrap()
    const kept = (await store.insert(draft({ userId: 1, name: 'kept' })))._unsafeUnwrap()
    await store.revoke(kept.id)
    for (const digest of [removed.digest, kept.digest]) {
      await b.findByDigest(digest)
      await b.findByDigest(digest)
    }
    const hits = b.stats().hits
    expect(hits).toBe(2)
    const unrevoked = { ...kept, revoked: false }
    const replaced = await a.replaceAll?.({
      users: [userFixture(1)],
      tokens: [unrevoked],
      groups: [],
      projects: [],
    })
    expect(replaced?.isOk()).toBe(true)
    expect(b.stats().resets).toBe(1)
    expect((await b.findByDigest(removed.digest))._unsafeUnwrap()).toBeNull()
    expect((await b.findByDigest(kept.digest))._unsafeUnwrap()).toEqual(unrevoked)
  })
})
