import { expect } from 'vitest'
import type { UserDraft } from '../../store/resource-store.js'
import type { User } from '../../store/user.js'
import { userFixture } from '../fixtures.js'
import { type ConformanceContext, seeder } from './context.js'
import { errValue, okValue } from './results.js'

/**
 * A user with the fields a store may leave out at their defaults left out: an absent field, `false`
 * (bot, serviceAccount) and `null` (botNamespace, provisionedByGroupId) mean the same.
 */
export function canonicalUser(user: User | null): User | null {
  if (user === null) return null
  const { bot, botNamespace, serviceAccount, provisionedByGroupId, ...rest } = user
  return {
    ...rest,
    ...(bot === true ? { bot } : {}),
    ...(botNamespace === null || botNamespace === undefined ? {} : { botNamespace }),
    ...(serviceAccount === true ? { serviceAccount } : {}),
    ...(provisionedByGroupId === null || provisionedByGroupId === undefined ? {} : { provisionedByGroupId }),
  }
}

const bot = (username: string, project: number): UserDraft => ({
  username,
  name: `${username} bot`,
  admin: false,
  blocked: false,
  bot: true,
  botNamespace: { type: 'project', id: project },
})

/**
 * Conformance tests of the optional `resources` capability's users: `createUser` (the next integer
 * id, never shared under concurrency), `listUsers`, and the user fields bots and service accounts
 * carry, which every user read returns.
 */
export function describeResourceUsers(ctx: ConformanceContext): void {
  ctx.group('resources: created users and user fields (optional)', () => {
    ctx.testOptional('resources', "createUser gives ids above every user's, increasing", async (store) => {
      await okValue(store.putUser(userFixture(41)))
      await okValue(store.putUser(userFixture(7)))
      const first = await okValue(store.resources.createUser(bot('project_7_bot_a', 7)))
      const second = await okValue(store.resources.createUser(bot('project_7_bot_b', 7)))
      expect(first.id).toBe(42)
      expect(second.id).toBe(43)
      expect(canonicalUser(first)).toEqual(canonicalUser({ ...bot('project_7_bot_a', 7), id: 42 }))
      expect(canonicalUser(await okValue(store.findUser(43)))).toEqual(
        canonicalUser({ ...bot('project_7_bot_b', 7), id: 43 }),
      )
    })

    ctx.testOptional('resources', 'concurrent createUser calls never share an id', async (store) => {
      await okValue(store.putUser(userFixture(1)))
      const count = 16
      const created = await Promise.all(
        Array.from({ length: count }, (_, k) => okValue(store.resources.createUser(bot(`bot_${k}`, 1)))),
      )
      const ids = created.map((user) => user.id).sort((a, b) => Number(a) - Number(b))
      expect(new Set(ids).size, `ids ${ids.join(', ')}`).toBe(count)
      expect(ids.every((id) => typeof id === 'number' && id > 1)).toBe(true)
      for (const user of created) {
        expect((await okValue(store.findUser(user.id)))?.username).toBe(user.username)
      }
    })

    ctx.testOptional('resources', 'createUser refuses a username taken in any case', async (store) => {
      await okValue(store.putUser(userFixture(3, { username: 'Deploy_Bot' })))
      await errValue(store.resources.createUser(bot('deploy_bot', 1)))
      expect(await okValue(store.resources.listUsers({}))).toHaveLength(1)
      expect((await okValue(store.resources.createUser(bot('deploy_bot_2', 1)))).id).toBe(4)
    })

    ctx.testOptional(
      'resources',
      'listUsers returns the users matching every given field, in id order',
      async (store) => {
        const users: User[] = [
          userFixture(9, { username: 'sa-instance', serviceAccount: true, provisionedByGroupId: null }),
          userFixture(2, { username: 'human' }),
          userFixture(5, { username: 'sa-group', serviceAccount: true, provisionedByGroupId: 3 }),
          { ...bot('bot-a', 1), id: 7 },
          userFixture(4, { username: 'sa-other', serviceAccount: true, provisionedByGroupId: 8 }),
        ]
        for (const user of users) await okValue(store.putUser(user))
        const ids = async (filter: Parameters<typeof store.resources.listUsers>[0]) =>
          (await okValue(store.resources.listUsers(filter))).map((user) => user.id)
        expect(await ids({})).toEqual([2, 4, 5, 7, 9])
        expect(await ids({ serviceAccount: true })).toEqual([4, 5, 9])
        expect(await ids({ serviceAccount: false })).toEqual([2, 7])
        expect(await ids({ bot: true })).toEqual([7])
        expect(await ids({ bot: false })).toEqual([2, 4, 5, 9])
        expect(await ids({ serviceAccount: true, provisionedByGroupId: 3 })).toEqual([5])
        expect(await ids({ serviceAccount: true, provisionedByGroupId: null })).toEqual([9])
        expect(await ids({ provisionedByGroupId: 8, bot: true })).toEqual([])
      },
    )

    ctx.testOptional(
      'resources',
      'the user fields of bots and service accounts read back from every user lookup',
      async (store) => {
        const botUser: User = { ...bot('project_7_bot', 7), id: 11 }
        const account = userFixture(12, {
          username: 'service_account_group_3',
          name: 'Deployer',
          serviceAccount: true,
          provisionedByGroupId: 3,
        })
        const plain = userFixture(13, { bot: false, botNamespace: null, serviceAccount: false })
        const { draft } = seeder(store)
        for (const user of [botUser, account, plain]) {
          expect(canonicalUser(await okValue(store.putUser(user)))).toEqual(canonicalUser(user))
          expect(canonicalUser(await okValue(store.findUser(user.id)))).toEqual(canonicalUser(user))
          expect(canonicalUser(await okValue(store.findUser(user.username)))).toEqual(canonicalUser(user))
          expect(canonicalUser(await okValue(store.findUserById(user.id)))).toEqual(canonicalUser(user))
          // Straight through the store: the seeder would put a plain user of this id first.
          const token = await okValue(store.insert(draft({ userId: user.id })))
          const found = await okValue(store.findByDigestWithUser(token.digest))
          expect(canonicalUser(found?.user ?? null)).toEqual(canonicalUser(user))
        }
        // Replacing a user clears the fields the new one lacks.
        await okValue(store.putUser(userFixture(11, { username: 'project_7_bot' })))
        expect(canonicalUser(await okValue(store.findUser(11)))).toEqual(
          userFixture(11, { username: 'project_7_bot' }),
        )
      },
    )
  })
}
