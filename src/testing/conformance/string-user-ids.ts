import { expect } from 'vitest'
import { draftFactory, tokenFixture, userFixture } from '../fixtures.js'
import { type ConformanceContext, NOW, query, seeder } from './context.js'
import { contract } from './contracts.js'
import { errValue, okValue } from './results.js'

const UUID = '0b8f6c9e-5d2a-4f8e-9c1e-2f4a6b8d0e13'

/**
 * Conformance tests of `findUserById` on the store as configured (integer ids, GitLab's default).
 */
export function describeUserIdLookup(ctx: ConformanceContext): void {
  ctx.group('user id lookup', () => {
    ctx.test(
      'findUserById finds an integer id exactly, never a string of its digits or a username',
      async (store) => {
        const alice = userFixture(7, { username: 'alice' })
        await okValue(store.putUser(alice))
        expect(await okValue(store.findUserById(7))).toEqual(alice)
        for (const ref of ['7', 'alice', 8]) {
          expect(await okValue(store.findUserById(ref)), String(ref)).toBeNull()
        }
      },
    )

    ctx.test(
      "a store that declares userIdType 'integer' refuses a user or token with a string id",
      async (store) => {
        expect(store.userIdType, `userIdType of a store of integer ids ${contract('user-id-kind')}`).toBe(
          'integer',
        )
        const refusedUser = await errValue(store.putUser(userFixture('7')), 'user-id-kind', 'a string id')
        expect(refusedUser.type, contract('user-id-kind')).toBe('store_failure')
        await okValue(store.putUser(userFixture(7)))
        const refusedToken = await errValue(
          store.insert(draftFactory('integer-ids')({ userId: '7' })),
          'user-id-kind',
          'a string user id',
        )
        expect(refusedToken.type, contract('user-id-kind')).toBe('store_failure')
        expect((await okValue(store.list(query({})))).total).toBe(0)
      },
    )
  })
}

/**
 * Conformance tests of a store holding string user ids (`userIdType: 'string'`): run on the store
 * that `describeStoreConformance`'s `stringIds` option creates.
 */
export function describeStringUserIds(ctx: ConformanceContext): void {
  ctx.group('string user ids', () => {
    ctx.test(
      'string ids: findUserById finds each id exactly (case, leading zeros), never a number',
      async (store) => {
        const users = [
          userFixture(UUID, { username: 'uuid-user' }),
          userFixture('42', { username: 'forty-two' }),
          userFixture('042', { username: 'oh-forty-two' }),
          userFixture('Alice-ID', { username: 'alice', admin: true }),
        ]
        for (const user of users) expect(await okValue(store.putUser(user))).toEqual(user)
        for (const user of users)
          expect(await okValue(store.findUserById(user.id)), String(user.id)).toEqual(user)
        for (const ref of ['alice-id', 'ALICE-ID', '0042', 42, 'alice', `${UUID} `]) {
          expect(
            await okValue(store.findUserById(ref)),
            `findUserById(${JSON.stringify(ref)}) ${contract('user-id-kind')}`,
          ).toBeNull()
        }
      },
    )

    ctx.test("string ids: the store declares userIdType 'string'", async (store) => {
      expect(store.userIdType, `userIdType of a store of string ids ${contract('user-id-kind')}`).toBe(
        'string',
      )
    })

    ctx.test('string ids: findUser reads a string as a username and a number as no one', async (store) => {
      const bob = userFixture('42', { username: 'Bob' })
      await okValue(store.putUser(bob))
      const refs = contract('user-refs')
      expect(await okValue(store.findUser('bob')), `findUser("bob") ${refs}`).toEqual(bob)
      expect(await okValue(store.findUser('42')), `findUser("42") ${refs}`).toBeNull()
      expect(await okValue(store.findUser(42)), `findUser(42) ${refs}`).toBeNull()
    })

    ctx.test(
      'string ids: a user or token with an integer, empty or space-padded id is refused as a store failure',
      async (store) => {
        const refusedUser = await errValue(store.putUser(userFixture(7)), 'user-id-kind', 'an integer id')
        expect(refusedUser.type, contract('user-id-kind')).toBe('store_failure')
        await okValue(store.putUser(userFixture('7')))
        const refusedToken = await errValue(
          store.insert(draftFactory('string-ids')({ userId: 7 })),
          'user-id-kind',
          'an integer user id',
        )
        expect(refusedToken.type, contract('user-id-kind')).toBe('store_failure')
        expect((await okValue(store.list(query({})))).total).toBe(0)
      },
    )

    ctx.test(
      'string ids: tokens keep their string owner through insert, lookups, list, rotate and importToken',
      async (store) => {
        const seed = seeder(store)
        const [forOne, forOther] = await seed.insertAll([{ userId: '42' }, { userId: '042' }])
        if (forOne === undefined || forOther === undefined) throw new Error('two tokens were inserted')
        expect(forOne.userId).toBe('42')
        expect((await okValue(store.findById(forOne.id)))?.userId).toBe('42')
        expect((await okValue(store.findByDigest(forOther.digest)))?.userId).toBe('042')
        const listed = await okValue(store.list(query({ userId: '42' })))
        expect(listed.items.map((t) => t.id)).toEqual([forOne.id])
        expect((await okValue(store.list(query({ userId: 42 })))).total).toBe(0)
        const successor = await okValue(
          store.rotate(
            forOne.id,
            seed.draft({ userId: '42', previousId: forOne.id, familyId: forOne.familyId }),
          ),
        )
        expect(successor.userId).toBe('42')
        const imported = await seed.importToken(tokenFixture(900, { userId: UUID }))
        expect(imported.userId).toBe(UUID)
        expect((await okValue(store.findById(900)))?.userId).toBe(UUID)
        const revoked = await okValue(store.revokeDescendants(forOne.id, NOW))
        expect(revoked.map((t) => [t.id, t.userId])).toEqual([[successor.id, '42']])
      },
    )

    ctx.test('string ids: findByDigestWithUser finds the token with its string-id owner', async (store) => {
      const seed = seeder(store)
      const token = await seed.insert({ userId: UUID })
      const found = await okValue(store.findByDigestWithUser(token.digest))
      expect(found?.token.userId).toBe(UUID)
      expect(found?.user).toEqual(userFixture(UUID))
    })
  })
}
