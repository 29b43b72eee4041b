import Database from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import { describe, expect, it } from 'vitest'
import { manualClock } from '../../src/domain/clock.js'
import { seededRandom } from '../../src/domain/random.js'
import { createAuthority } from '../../src/index.js'
import { memoryStore } from '../../src/memory/index.js'
import { migrate, sqlStore } from '../../src/sql/index.js'
import type { TokenStore } from '../../src/store/token-store.js'
import { T0 } from '../support/authority-fixtures.js'

// Issue 28: `patkit serve --random-seed N` over a kept database draws, after a restart, the secrets
// and bot usernames it drew before: the first token and the first bot met stored ones (a 500). A key
// drawn at random and found taken is drawn again; only a source that never stops repeating fails.

const OWNER = { id: 1, username: 'owner', admin: false, blocked: false } as const
const PROJECT = { type: 'project', id: 7 } as const

async function memory(): Promise<TokenStore> {
  return memoryStore()
}

async function sqlite(): Promise<TokenStore> {
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) })
  const migrated = await migrate(db)
  if (migrated.isErr()) throw migrated.error.cause
  return sqlStore(db)
}

/** An authority over `store` whose random source starts at `seed`: a restart of `serve --random-seed`. */
function started(store: TokenStore, seed: number) {
  return createAuthority({ store, pepper: 'test-pepper', clock: manualClock(T0), random: seededRandom(seed) })
}

async function withProject(store: TokenStore): Promise<TokenStore> {
  ;(await store.putUser(OWNER))._unsafeUnwrap()
  const resources = store.resources
  if (resources === undefined) throw new Error('the store holds resources')
  ;(
    await resources.putProject({
      id: 7,
      path: 'api',
      fullPath: 'api',
      name: 'API',
      groupId: null,
      visibility: 'private',
      members: [{ userId: OWNER.id, accessLevel: 50 }],
    })
  )._unsafeUnwrap()
  return store
}

for (const [name, open] of [
  ['memory', memory],
  ['SQLite', sqlite],
] as const) {
  describe(`issue 28: a key drawn again after a restart with the same seed (${name})`, () => {
    it('a token minted by the restarted authority gets a fresh secret instead of failing', async () => {
      const store = await withProject(await open())
      const before = (
        await started(store, 9).issueToken({ userId: OWNER.id, name: 'a', scopes: ['api'] })
      )._unsafeUnwrap()
      const restarted = started(store, 9)
      const after = (
        await restarted.issueToken({ userId: OWNER.id, name: 'b', scopes: ['api'] })
      )._unsafeUnwrap()
      expect(after.secret).not.toBe(before.secret)
      expect(after.token.digest).not.toBe(before.token.digest)
      expect((await restarted.authenticate(after.secret))._unsafeUnwrap().token.id).toBe(after.token.id)
      expect((await restarted.authenticate(before.secret))._unsafeUnwrap().token.id).toBe(before.token.id)
    })

    it("a resource token's bot gets a fresh username instead of failing", async () => {
      const store = await withProject(await open())
      const input = { resource: PROJECT, name: 'deploy', scopes: ['api'] }
      const before = (await started(store, 9).issueResourceToken(input))._unsafeUnwrap()
      const after = (await started(store, 9).issueResourceToken(input))._unsafeUnwrap()
      const bots = (await store.resources?.listUsers({ bot: true }))?._unsafeUnwrap() ?? []
      expect(bots.map((bot) => bot.id)).toEqual([before.token.userId, after.token.userId])
      expect(new Set(bots.map((bot) => bot.username)).size).toBe(2)
      expect(after.token.digest).not.toBe(before.token.digest)
    })

    it('a source that repeats itself forever fails with the typed digest conflict, not a throw', async () => {
      const store = await withProject(await open())
      const stuck = { bytes: (n: number) => new Uint8Array(n).fill(7) }
      const authority = createAuthority({
        store,
        pepper: 'test-pepper',
        clock: manualClock(T0),
        random: stuck,
      })
      ;(await authority.issueToken({ userId: OWNER.id, name: 'a', scopes: ['api'] }))._unsafeUnwrap()
      const again = await authority.issueToken({ userId: OWNER.id, name: 'b', scopes: ['api'] })
      expect(again._unsafeUnwrapErr()).toMatchObject({ type: 'store_failure', conflict: 'digest' })
    })
  })
}
