import { expect } from 'vitest'
import type { StoreConflictKey } from '../../domain/errors.js'
import type { UserDraft } from '../../store/resource-store.js'
import { userFixture } from '../fixtures.js'
import { type ConformanceContext, seeder } from './context.js'
import { contract } from './contracts.js'
import { errValue, okValue } from './results.js'

const bot = (username: string): UserDraft => ({
  username,
  name: 'bot',
  admin: false,
  blocked: false,
  bot: true,
  botNamespace: { type: 'project', id: 1 },
})

/** What a refused write must answer: a `store_failure` naming the key it met. */
const conflictOn = (key: StoreConflictKey) => ({ type: 'store_failure', conflict: key })

/**
 * Conformance tests of `conflict-key`: a write refused because a unique key is taken names the key,
 * so a caller that drew it at random (a secret, a bot's username) can tell "taken" from a failure.
 */
export function describeConflicts(ctx: ConformanceContext): void {
  ctx.group('unique key conflicts', () => {
    ctx.test('insert of a taken digest fails naming the digest', async (store) => {
      const seed = seeder(store)
      const stored = await seed.insert()
      const again = seed.draft({ userId: stored.userId, digest: stored.digest })
      expect(await errValue(store.insert(again), 'conflict-key'), contract('conflict-key')).toMatchObject(
        conflictOn('digest'),
      )
    })

    ctx.test('importToken of a taken id or digest fails naming it', async (store) => {
      const seed = seeder(store)
      const stored = await seed.insert()
      const sameId = { ...seed.draft({ userId: stored.userId }), id: stored.id, familyId: stored.id }
      expect(
        await errValue(store.importToken(sameId), 'conflict-key'),
        contract('conflict-key'),
      ).toMatchObject(conflictOn('id'))
      const sameDigest = { ...stored, id: stored.id + 50, familyId: stored.id + 50 }
      expect(
        await errValue(store.importToken(sameDigest), 'conflict-key'),
        contract('conflict-key'),
      ).toMatchObject(conflictOn('digest'))
    })

    ctx.test('insert of a second successor fails naming the predecessor', async (store) => {
      const seed = seeder(store)
      const first = await seed.insert()
      await seed.insert({ previousId: first.id, familyId: first.familyId })
      const second = seed.draft({ userId: first.userId, previousId: first.id, familyId: first.familyId })
      expect(await errValue(store.insert(second), 'conflict-key'), contract('conflict-key')).toMatchObject(
        conflictOn('previous_id'),
      )
    })

    ctx.test('a failure that is not a taken key names none', async (store) => {
      const seed = seeder(store)
      const stored = await seed.insert()
      const badId = { ...seed.draft({ userId: stored.userId }), id: 0, familyId: 0 }
      const failure = await errValue(store.importToken(badId))
      expect(failure, 'importToken of id 0').toMatchObject({ type: 'store_failure' })
      expect(failure, `importToken of id 0 ${contract('conflict-key')}`).not.toHaveProperty('conflict')
    })

    ctx.test(
      'putUser of a username another user holds, in any case, fails naming the username',
      async (store) => {
        await okValue(store.putUser(userFixture(7, { username: 'Alice' })))
        expect(
          await errValue(store.putUser(userFixture(8, { username: 'alice' })), 'conflict-key'),
          contract('conflict-key'),
        ).toMatchObject(conflictOn('username'))
      },
    )

    ctx.testOptional(
      'resources',
      'createUser of a taken username fails naming the username',
      async (store) => {
        await okValue(store.putUser(userFixture(3, { username: 'Project_1_Bot_A' })))
        expect(
          await errValue(store.resources.createUser(bot('project_1_bot_a')), 'conflict-key'),
          contract('conflict-key'),
        ).toMatchObject(conflictOn('username'))
      },
    )
  })
}
