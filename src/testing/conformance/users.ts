import { expect } from 'vitest'
import { userFixture } from '../fixtures.js'
import type { ConformanceContext } from './context.js'
import { contract } from './contracts.js'
import { okValue } from './results.js'

/**
 * Conformance tests of `putUser` and `findUser`.
 */
export function describeUsers(ctx: ConformanceContext): void {
  ctx.group('users', () => {
    ctx.test('putUser stores a user and findUser finds it by numeric id', async (store) => {
      const alice = userFixture(7, { username: 'alice', admin: true })
      expect(await okValue(store.putUser(alice))).toEqual(alice)
      expect(await okValue(store.findUser(7))).toEqual(alice)
    })

    ctx.test('findUser finds a user by an id written as a string of digits', async (store) => {
      const alice = userFixture(7, { username: 'alice' })
      await okValue(store.putUser(alice))
      expect(await okValue(store.findUser('7')), `findUser("7") ${contract('user-refs')}`).toEqual(alice)
    })

    ctx.test('findUser finds a user by username in any case', async (store) => {
      const alice = userFixture(7, { username: 'Alice.Smith', blocked: true })
      await okValue(store.putUser(alice))
      await okValue(store.putUser(userFixture(8, { username: 'bob' })))
      for (const ref of ['Alice.Smith', 'alice.smith', 'ALICE.SMITH', 'aLiCe.SmItH']) {
        expect(
          await okValue(store.findUser(ref)),
          `findUser(${JSON.stringify(ref)}) ${contract('user-refs')}`,
        ).toEqual(alice)
      }
    })

    ctx.test('findUser returns null for an unknown id or username', async (store) => {
      await okValue(store.putUser(userFixture(7, { username: 'alice' })))
      for (const ref of [8, '8', 'bob', 'alice2', 'alic']) {
        expect(await okValue(store.findUser(ref)), String(ref)).toBeNull()
      }
    })

    ctx.test('putUser replaces the user with the same id', async (store) => {
      await okValue(store.putUser(userFixture(7, { username: 'alice' })))
      const renamed = userFixture(7, { username: 'alicia', admin: true, blocked: true })
      expect(await okValue(store.putUser(renamed))).toEqual(renamed)
      const refs = contract('user-refs')
      expect(await okValue(store.findUser(7)), `findUser(7) after a putUser of the same id ${refs}`).toEqual(
        renamed,
      )
      expect(await okValue(store.findUser('alicia')), `findUser("alicia") ${refs}`).toEqual(renamed)
      expect(await okValue(store.findUser('alice')), `findUser("alice"), the old name ${refs}`).toBeNull()
    })
  })
}
