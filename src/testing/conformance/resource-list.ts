import { expect } from 'vitest'
import type { CalendarDate } from '../../domain/calendar.js'
import type { ResourceRef } from '../../domain/resource.js'
import type { TokenFilter } from '../../query/filter.js'
import type { User } from '../../store/user.js'
import { userFixture } from '../fixtures.js'
import type { ConformanceContext } from './context.js'
import { listNames, query, seeder, type WithCapability } from './context.js'
import { groupFixture, projectFixture } from './resources.js'
import { okValue } from './results.js'

const PROJECT: ResourceRef = { type: 'project', id: 7 }
const GROUP: ResourceRef = { type: 'group', id: 7 }

const botOf = (id: number, namespace: ResourceRef): User =>
  userFixture(id, { username: `bot-${id}`, bot: true, botNamespace: namespace })

/**
 * Project 7: bots 10 and 11 and human 2 are members; project 8: bot 12; group 7 (another resource of
 * the same id): bot 13; bot 14 is a member of nothing. Tokens, in id order: a1 a2 (revoked) of 10,
 * b1 of 11, h1 of 2, c1 of 12, d1 of 13, e1 of 14.
 */
async function world(store: WithCapability<'resources'>): Promise<void> {
  const { resources } = store
  for (const user of [
    botOf(10, PROJECT),
    botOf(11, PROJECT),
    userFixture(2),
    botOf(12, { type: 'project', id: 8 }),
    botOf(13, GROUP),
    botOf(14, { type: 'project', id: 99 }),
  ]) {
    await okValue(store.putUser(user))
  }
  await okValue(
    resources.putProject(
      projectFixture(7, {
        members: [
          { userId: 10, accessLevel: 40 },
          { userId: 2, accessLevel: 50 },
        ],
      }),
    ),
  )
  await okValue(resources.setMember(PROJECT, { userId: 11, accessLevel: 30 }))
  await okValue(resources.putProject(projectFixture(8, { members: [{ userId: 12, accessLevel: 40 }] })))
  await okValue(resources.putGroup(groupFixture(7, { members: [{ userId: 13, accessLevel: 40 }] })))
  const { draft } = seeder(store)
  const tokens: [number, string, boolean, string][] = [
    [10, 'a1', false, '2026-02-01'],
    [10, 'a2', true, '2026-03-01'],
    [11, 'b1', false, '2026-01-15'],
    [2, 'h1', false, '2026-01-01'],
    [12, 'c1', false, '2026-01-01'],
    [13, 'd1', false, '2026-01-01'],
    [14, 'e1', false, '2026-01-01'],
  ]
  // Straight through the store: the seeder would put plain users over the bots.
  for (const [userId, name, revoked, created] of tokens) {
    await okValue(
      store.insert(
        draft({
          userId,
          name,
          revoked,
          createdAt: new Date(`${created}T00:00:00.000Z`),
          expiresAt: '2027-01-01' as CalendarDate,
        }),
      ),
    )
  }
}

/**
 * Conformance tests of `filter.resource` in `list` (stores with the `resources` capability): only the
 * tokens of the resource's bot members, with every other filter, sort and page applying as usual.
 */
export function describeResourceList(ctx: ConformanceContext): void {
  ctx.group('list: filter.resource (optional)', () => {
    ctx.testOptional(
      'resources',
      "list with filter.resource returns only the tokens of the resource's bot members",
      async (store) => {
        await world(store)
        expect(await listNames(store, { resource: PROJECT })).toEqual(['a1', 'a2', 'b1'])
        expect(await listNames(store, { resource: { type: 'project', id: 8 } })).toEqual(['c1'])
        expect(await listNames(store, { resource: GROUP }), 'group 7, not project 7').toEqual(['d1'])
        expect(await listNames(store, { resource: { type: 'project', id: 99 } }), 'no such project').toEqual(
          [],
        )
        expect(await listNames(store, { resource: { type: 'group', id: 8 } }), 'no such group').toEqual([])
      },
    )

    ctx.testOptional(
      'resources',
      'list with filter.resource combines with the other filters, the sort and the pages',
      async (store) => {
        await world(store)
        const names = (filter: TokenFilter, options: Parameters<typeof listNames>[2] = {}) =>
          listNames(store, { resource: PROJECT, ...filter }, options)
        expect(await names({ state: 'active' })).toEqual(['a1', 'b1'])
        expect(await names({ revoked: true })).toEqual(['a2'])
        expect(await names({ userId: 11 })).toEqual(['b1'])
        expect(await names({ userId: 2 }), 'a human member').toEqual([])
        expect(await names({ search: 'A2' })).toEqual(['a2'])
        expect(await names({ createdAfter: new Date('2026-02-01T00:00:00.000Z') })).toEqual(['a1', 'a2'])
        expect(await names({}, { sort: 'created_desc' })).toEqual(['a2', 'a1', 'b1'])
        expect(await names({}, { sort: 'name_desc', perPage: 1, page: 2 })).toEqual(['a2'])
        const page = await okValue(store.list(query({ resource: PROJECT }, { perPage: 2, page: 2 })))
        expect(page.items.map((token) => token.name)).toEqual(['b1'])
        expect(page.total).toBe(3)
        const past = await okValue(store.list(query({ resource: PROJECT }, { perPage: 2, page: 3 })))
        expect(past).toEqual({ items: [], total: 3 })
      },
    )

    ctx.testOptional(
      'resources',
      'list with filter.resource follows the members and the bot flag as they change',
      async (store) => {
        await world(store)
        const { resources } = store
        // Bot 11 leaves (the project is put without it); bot 14 joins; human 2 becomes a bot.
        await okValue(
          resources.putProject(
            projectFixture(7, {
              members: [
                { userId: 10, accessLevel: 40 },
                { userId: 2, accessLevel: 50 },
              ],
            }),
          ),
        )
        await okValue(resources.setMember(PROJECT, { userId: 14, accessLevel: 10 }))
        await okValue(store.putUser(botOf(2, PROJECT)))
        expect(await listNames(store, { resource: PROJECT })).toEqual(['a1', 'a2', 'h1', 'e1'])
      },
    )
  })
}
