import Database from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import { ok, type Result } from 'neverthrow'
import { afterEach, describe, expect, it } from 'vitest'
import { manualClock } from '../../src/domain/clock.js'
import { seededRandom } from '../../src/domain/random.js'
import { createAuthority } from '../../src/index.js'
import { memoryStore } from '../../src/memory/index.js'
import { migrate, sqlStore } from '../../src/sql/index.js'
import type { TokenStore } from '../../src/store/token-store.js'
import { pglite } from '../sql/support/databases.js'
import { T0 } from '../support/authority-fixtures.js'

// Issue 28: `patkit serve --random-seed N` over a kept database draws, after a restart, the secrets
// and bot usernames it drew before: the first token and the first bot met stored ones (a 500). A key
// drawn at random and found taken is drawn again; only a source that never stops repeating fails.

const OWNER = { id: 1, username: 'owner', admin: false, blocked: false } as const
const ADMIN = { id: 2, username: 'root', admin: true, blocked: false } as const
const PROJECT = { type: 'project', id: 7 } as const

/** The value of an ok result; an error fails the test showing the error (a `store_failure`, a 400). */
function okOf<T, E>(result: Result<T, E>): T {
  expect(result.isErr() ? result.error : null).toBeNull()
  return result._unsafeUnwrap()
}

async function memory(): Promise<TokenStore> {
  return memoryStore()
}

async function sqlite(): Promise<TokenStore> {
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) })
  const migrated = await migrate(db)
  if (migrated.isErr()) throw migrated.error.cause
  return sqlStore(db)
}

// The PGlite databases a test opened, closed after it (each one is a whole PostgreSQL in memory).
const opened: Kysely<unknown>[] = []
afterEach(async () => {
  await Promise.all(opened.splice(0).map((db) => db.destroy()))
})

async function postgres(): Promise<TokenStore> {
  const db = pglite.open()
  opened.push(db)
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
  ['PostgreSQL (PGlite)', postgres],
] as const) {
  // PGlite starts a PostgreSQL in WebAssembly per test: slow on a loaded machine, hence the timeout.
  describe(`issue 28: a key drawn again after a restart with the same seed (${name})`, {
    timeout: 60_000,
  }, () => {
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

    it("a rotation whose successor's first secret is a stored one's gets a fresh secret instead of failing", async () => {
      const store = await withProject(await open())
      const before = (
        await started(store, 9).issueToken({ userId: OWNER.id, name: 'a', scopes: ['api'] })
      )._unsafeUnwrap()
      // The restarted source draws `before`'s secret first: the successor's digest is taken.
      const restarted = started(store, 9)
      const rotated = okOf(await restarted.rotateRequest({ secret: before.secret, ref: ok('self') }))
      expect(rotated.replayed).toBe(false)
      expect(rotated.secret).not.toBe(before.secret)
      expect(rotated.token.previousId).toBe(before.token.id)
      expect((await restarted.authenticate(rotated.secret))._unsafeUnwrap().token.id).toBe(rotated.token.id)
      expect((await store.findById(before.token.id))._unsafeUnwrap()?.revoked).toBe(true)
      expect((await store.findSuccessor?.(before.token.id))?._unsafeUnwrap()?.id).toBe(rotated.token.id)
    })

    it('a rotation with an Idempotency-Key drawn again keeps one successor and replays it', async () => {
      const store = await withProject(await open())
      const before = (
        await started(store, 9).issueToken({ userId: OWNER.id, name: 'a', scopes: ['api'] })
      )._unsafeUnwrap()
      const restarted = started(store, 9)
      const request = { secret: before.secret, ref: ok('self' as const), idempotencyKey: 'retry-28' }
      const first = okOf(await restarted.rotateRequest(request))
      const again = okOf(await restarted.rotateRequest(request))
      expect(first.secret).not.toBe(before.secret)
      expect(again).toMatchObject({ replayed: true, secret: first.secret, token: { id: first.token.id } })
      expect((await store.findSuccessor?.(before.token.id))?._unsafeUnwrap()?.id).toBe(first.token.id)
    })

    it("a service account's drawn username gets drawn again instead of being refused as taken", async () => {
      const store = await withProject(await open())
      ;(await store.putUser(ADMIN))._unsafeUnwrap()
      // The administrator's token from another source, so that both starts draw the username first.
      const admin = (
        await started(store, 1).issueToken({ userId: ADMIN.id, name: 'root', scopes: ['api'] })
      )._unsafeUnwrap()
      const create = async (authority: ReturnType<typeof started>) => {
        const principal = (await authority.authenticate(admin.secret))._unsafeUnwrap()
        return okOf(await authority.createServiceAccount(principal, {}))
      }
      const before = await create(started(store, 9))
      const after = await create(started(store, 9))
      expect(before.username).toMatch(/^service_account_[0-9a-f]{32}$/)
      expect(after.username).toMatch(/^service_account_[0-9a-f]{32}$/)
      expect(after.username).not.toBe(before.username)
      expect(after.id).not.toBe(before.id)
    })

    it('a rotation under a source that repeats itself forever fails with the digest conflict, the token kept', async () => {
      const store = await withProject(await open())
      const stuck = { bytes: (n: number) => new Uint8Array(n).fill(7) }
      const authority = createAuthority({
        store,
        pepper: 'test-pepper',
        clock: manualClock(T0),
        random: stuck,
      })
      const issued = (
        await authority.issueToken({ userId: OWNER.id, name: 'a', scopes: ['api'] })
      )._unsafeUnwrap()
      const rotated = await authority.rotateRequest({ secret: issued.secret, ref: ok('self') })
      expect(rotated._unsafeUnwrapErr()).toMatchObject({ type: 'store_failure', conflict: 'digest' })
      expect((await store.findById(issued.token.id))._unsafeUnwrap()?.revoked).toBe(false)
      expect((await store.findSuccessor?.(issued.token.id))?._unsafeUnwrap()).toBeNull()
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
