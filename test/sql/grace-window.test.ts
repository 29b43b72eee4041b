import { beforeAll, expect, it } from 'vitest'
import { manualClock } from '../../src/domain/clock.js'
import { seededRandom } from '../../src/domain/random.js'
import { type Authority, createAuthority } from '../../src/index.js'
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

// The rotation grace window (issue 13) over every SQL database: the store's part is findSuccessor
// (conformance-tested) and the receipts; this runs the authority's flow on each, end to end.
const T0 = new Date('2026-06-15T12:00:00.000Z')
const WINDOW_MS = 30_000
const ALICE = { id: 2, username: 'alice', admin: false, blocked: false }

function describeGrace(target: DatabaseTarget, tag: string): Promise<void> {
  const prefix = uniquePrefix(tag)
  return describeDatabase(target, prefix, (db) => {
    let authority: Authority
    const clock = manualClock(T0)
    beforeAll(async () => {
      const store = await migratedStore(db, prefix)
      authority = createAuthority({
        store,
        pepper: 'grace',
        clock,
        random: seededRandom(3),
        rotationGraceMs: WINDOW_MS,
      })
      ;(await authority.users.put(ALICE))._unsafeUnwrap()
    })

    it('the previous token works inside the window, a replay gets the same successor once, then not', async () => {
      const { secret } = (
        await authority.issueToken({ userId: ALICE.id, name: 'ci', scopes: ['api'] })
      )._unsafeUnwrap()
      const first = (await authority.authenticate(secret))._unsafeUnwrap()
      const rotated = (await authority.rotate(first, 'self', { presentedSecret: secret }))._unsafeUnwrap()
      clock.advance(WINDOW_MS - 1)
      expect((await authority.authenticate(secret))._unsafeUnwrap().token.revoked).toBe(true)
      expect((await authority.requests.replayRotation(secret, 'self', null))._unsafeUnwrap()).toEqual(rotated)
      expect((await authority.requests.replayRotation(secret, 'self', null))._unsafeUnwrap()).toBeNull()
      clock.advance(1)
      expect((await authority.authenticate(secret))._unsafeUnwrapErr().type).toBe('token_revoked')
      expect((await authority.authenticate(rotated.secret)).isOk()).toBe(true)
    })
  })
}

await describeGrace(sqliteMemory, 'grsqlite')
await describeGrace(pglite, 'grpglite')
await describeGrace(postgres, 'grpg')
await describeGrace(mariadb, 'grmy')
