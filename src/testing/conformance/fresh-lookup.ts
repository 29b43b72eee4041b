import { expect } from 'vitest'
import { userFixture } from '../fixtures.js'
import { type ConformanceContext, seeder } from './context.js'
import { okValue } from './results.js'

const LATER = new Date('2026-06-15T12:00:00.000Z')

/**
 * Conformance tests of `findFreshByDigest`: the answer of `findByDigest` followed by
 * `findUser(token.userId)`, as stored now, after any write (the authority decides rotations and other
 * writes from it, never from a cached row).
 */
export function describeFreshLookup(ctx: ConformanceContext): void {
  ctx.group('findFreshByDigest', () => {
    ctx.test('findFreshByDigest returns the token and its owner', async (store) => {
      const seed = seeder(store)
      const [, b] = await seed.insertAll([{ name: 'a' }, { name: 'b', userId: 2 }])
      const digest = b?.digest ?? ''
      const token = await okValue(store.findByDigest(digest))
      const user = await okValue(store.findUser(2))
      expect(await okValue(store.findFreshByDigest(digest))).toEqual({ token, user })
      expect(await okValue(store.findFreshByDigest(`${digest}x`))).toBeNull()
      const orphan = await okValue(store.insert(seed.draft({ userId: 77 })))
      expect(await okValue(store.findFreshByDigest(orphan.digest))).toEqual({ token: orphan, user: null })
    })

    ctx.test(
      'findFreshByDigest answers current after a revoke, a rotation, a touch and a user change',
      async (store) => {
        const seed = seeder(store)
        const token = await seed.insert({ userId: 5 })
        // Read once first, so a store that remembers answers has one to keep.
        await okValue(store.findFreshByDigest(token.digest))
        await okValue(store.touchLastUsed(token.id, LATER, 0, null))
        const touched = await okValue(store.findFreshByDigest(token.digest))
        expect(touched?.token.lastUsedAt).toEqual(LATER)
        await okValue(store.putUser(userFixture(5, { blocked: true })))
        expect((await okValue(store.findFreshByDigest(token.digest)))?.user?.blocked).toBe(true)
        const successor = await okValue(
          store.rotate(token.id, seed.draft({ userId: 5, previousId: token.id, familyId: token.familyId })),
        )
        expect((await okValue(store.findFreshByDigest(token.digest)))?.token.revoked).toBe(true)
        expect((await okValue(store.findFreshByDigest(successor.digest)))?.token).toEqual(successor)
        await okValue(store.revoke(successor.id))
        const revoked = await okValue(store.findFreshByDigest(successor.digest))
        expect(revoked?.token).toEqual({ ...successor, revoked: true })
        const joined = store.findByDigestWithUser
        if (joined !== undefined) expect(await okValue(joined(successor.digest))).toEqual(revoked)
      },
    )
  })
}
