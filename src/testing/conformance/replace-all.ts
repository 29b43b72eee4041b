import { expect } from 'vitest'
import type { Token } from '../../domain/token.js'
import { userFixture } from '../fixtures.js'
import { type ConformanceContext, listNames, query, seeder } from './context.js'
import { groupFixture, projectFixture } from './resources.js'
import { errValue, okValue } from './results.js'

/** Rounds of the race of `replaceAll` with rotations. */
const REPLACE_RACE_ROUNDS = 20

/** The families of the race's contents: a token each, first of its family. */
const RACE_FAMILIES = [70, 71, 72, 73] as const

/**
 * Conformance tests of `replaceAll`: all the data replaced in one atomic
 * step by the contents given, stored exactly; a refused replace changes nothing; atomic against
 * concurrent writes.
 */
export function describeReplaceAll(ctx: ConformanceContext): void {
  ctx.group('replaceAll', () => {
    ctx.test('replaceAll replaces every token and user, stored exactly', async (store) => {
      const seed = seeder(store)
      const old = await seed.insert({ name: 'old', userId: 1 })
      const first: Token = {
        ...seed.draft({ name: 'first', userId: 2, revoked: true }),
        id: 40,
        familyId: 40,
      }
      const second: Token = {
        ...seed.draft({ name: 'second', userId: 2, previousId: 40 }),
        id: 41,
        familyId: 40,
      }
      const bob = userFixture(2, { username: 'bob' })
      // A successor before its predecessor: the contents are stored as a whole.
      await okValue(store.replaceAll({ users: [bob], tokens: [second, first], groups: [], projects: [] }))
      expect(await listNames(store, {})).toEqual(['first', 'second'])
      expect(await okValue(store.findByDigest(old.digest))).toBeNull()
      expect(await okValue(store.findById(old.id))).toBeNull()
      expect(await okValue(store.findUser(1))).toBeNull()
      expect(await okValue(store.findUser(2))).toEqual(bob)
      expect(await okValue(store.findById(41))).toEqual(second)
      expect(await okValue(store.findByDigest(first.digest))).toEqual(first)
    })

    ctx.test('replaceAll replaces the groups and projects too', async (store) => {
      const { resources } = store
      if (resources === undefined) return
      await okValue(store.putUser(userFixture(1)))
      await okValue(resources.putGroup(groupFixture(1, { path: 'old' })))
      await okValue(resources.putProject(projectFixture(2, { path: 'old' })))
      const group = groupFixture(3, { path: 'acme', members: [{ userId: 1, accessLevel: 50 }] })
      const project = projectFixture(4, {
        path: 'api',
        groupId: 3,
        members: [{ userId: 1, accessLevel: 30 }],
      })
      await okValue(
        store.replaceAll({ users: [userFixture(1)], tokens: [], groups: [group], projects: [project] }),
      )
      expect(await okValue(resources.listGroups())).toEqual([group])
      expect(await okValue(resources.listProjects())).toEqual([project])
    })

    ctx.test('a refused replaceAll changes nothing', async (store) => {
      const seed = seeder(store)
      const old = await seed.insert({ name: 'old', userId: 1 })
      const draft = seed.draft({ name: 'twice', userId: 2 })
      // One digest twice: refused by the store, after the old rows were deleted in the same step.
      const failure = await errValue(
        store.replaceAll({
          users: [userFixture(2)],
          tokens: [
            { ...draft, id: 50, familyId: 50 },
            { ...draft, id: 51, familyId: 51 },
          ],
          groups: [],
          projects: [],
        }),
      )
      expect(failure.type).toBe('store_failure')
      expect(await listNames(store, {})).toEqual(['old'])
      expect(await okValue(store.findByDigest(old.digest))).toEqual(old)
      expect(await okValue(store.findUser(1))).toMatchObject({ id: 1 })
      expect(await okValue(store.findUser(2))).toBeNull()
    })

    ctx.test(
      `replaceAll racing rotations of its tokens leaves one active token per family, ${REPLACE_RACE_ROUNDS} rounds`,
      async (store) => {
        const seed = seeder(store)
        const tokens: Token[] = RACE_FAMILIES.map((id) => ({
          ...seed.draft({ name: `family-${id}`, userId: 1 }),
          id,
          familyId: id,
        }))
        const contents = { users: [userFixture(1)], tokens, groups: [], projects: [] }
        await okValue(store.replaceAll(contents))
        for (let round = 0; round < REPLACE_RACE_ROUNDS; round++) {
          // Each rotation commits before the replace (and is gone with the old data) or after it (and
          // rotates the contents' token): never both the contents' token and a successor active.
          const [replaced, ...rotations] = await Promise.all([
            store.replaceAll(contents),
            ...tokens.map((token) =>
              store.rotate(
                token.id,
                seed.draft({
                  name: `family-${token.id}`,
                  userId: 1,
                  previousId: token.id,
                  familyId: token.id,
                }),
              ),
            ),
          ])
          expect(replaced?.isOk(), `round ${round}: ${JSON.stringify(replaced)}`).toBe(true)
          const { items } = await okValue(store.list(query({})))
          const ids = new Set(items.map((token) => token.id))
          for (const token of items) {
            if (token.previousId !== null)
              expect(ids, `round ${round}: predecessor`).toContain(token.previousId)
          }
          const active = items.filter((token) => !token.revoked).map((token) => token.familyId)
          expect(active.sort(), `round ${round}: the families' active tokens`).toEqual([...RACE_FAMILIES])
          for (const rotated of rotations) {
            if (rotated.isErr() || !ids.has(rotated.value.id)) continue
            expect(await okValue(store.findById(rotated.value.previousId ?? 0))).toMatchObject({
              revoked: true,
            })
          }
          // The next round starts from the contents again.
          await okValue(store.replaceAll(contents))
        }
      },
    )

    ctx.test('ids inserted after replaceAll stay above every id before', async (store) => {
      const seed = seeder(store)
      const [, second] = await seed.insertAll([{ name: 'a' }, { name: 'b' }])
      await okValue(store.replaceAll({ users: [], tokens: [], groups: [], projects: [] }))
      expect(await listNames(store, {})).toEqual([])
      const next = await seed.insert({ name: 'c' })
      expect(next.id).toBeGreaterThan(second?.id ?? 0)
    })

    ctx.test('ids inserted after replaceAll stay above every id replaced in', async (store) => {
      const seed = seeder(store)
      const imported: Token = { ...seed.draft({ name: 'high', userId: 1 }), id: 900, familyId: 900 }
      await okValue(
        store.replaceAll({ users: [userFixture(1)], tokens: [imported], groups: [], projects: [] }),
      )
      const next = await seed.insert({ name: 'next' })
      expect(next.id).toBeGreaterThan(900)
    })
  })
}
