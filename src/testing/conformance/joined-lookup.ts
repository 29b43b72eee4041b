import { expect } from 'vitest'
import { userFixture } from '../fixtures.js'
import { type ConformanceContext, seeder } from './context.js'
import { contract } from './contracts.js'
import { okValue } from './results.js'

/**
 * Conformance tests of `findByDigestWithUser`: the same answer as `findByDigest`
 * followed by `findUser(token.userId)`, in every case the authority tells apart. Skipped, with the
 * reason, for a store without it.
 */
export function describeJoinedLookup(ctx: ConformanceContext): void {
  ctx.group('findByDigestWithUser', () => {
    ctx.test('findByDigestWithUser returns the token and its owner', async (store) => {
      const seed = seeder(store)
      const [, b] = await seed.insertAll([{ name: 'a' }, { name: 'b', userId: 2 }, { name: 'c' }])
      const digest = b?.digest ?? ''
      const token = await okValue(store.findByDigest(digest))
      const user = await okValue(store.findUser(2))
      expect(user).not.toBeNull()
      expect(await okValue(store.findByDigestWithUser(digest))).toEqual({ token, user })
    })

    ctx.test('findByDigestWithUser returns null for an unknown digest', async (store) => {
      const token = await seeder(store).insert()
      const exact = contract('exact-digest')
      expect(await okValue(store.findByDigestWithUser(`${token.digest}x`)), exact).toBeNull()
      expect(
        await okValue(store.findByDigestWithUser(token.digest.toUpperCase())),
        `findByDigestWithUser(the digest upper-cased) ${exact}`,
      ).toBeNull()
    })

    ctx.test('findByDigestWithUser returns a null user when the owner is not stored', async (store) => {
      const draft = seeder(store).draft({ userId: 77 })
      // Straight through the store: the seeder would create the user first.
      const token = await okValue(store.insert(draft), 'tokens-without-users', 'user 77 is not stored')
      expect(await okValue(store.findUser(77))).toBeNull()
      expect(
        await okValue(store.findByDigestWithUser(token.digest)),
        `findByDigestWithUser(a token of user 77, who is not stored) ${contract('tokens-without-users')}`,
      ).toEqual({ token, user: null })
    })

    ctx.test("findByDigestWithUser sees the owner's latest flags", async (store) => {
      const token = await seeder(store).insert({ userId: 5 })
      const blocked = { ...userFixture(5), admin: true, blocked: true }
      await okValue(store.putUser(blocked))
      expect(await okValue(store.findByDigestWithUser(token.digest))).toEqual({ token, user: blocked })
    })
  })
}
