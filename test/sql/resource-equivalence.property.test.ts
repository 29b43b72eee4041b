import fc from 'fast-check'
import { beforeAll, expect, it } from 'vitest'
import type { AccessLevel, ResourceType } from '../../src/domain/resource.js'
import { memoryStore } from '../../src/memory/index.js'
import type { ListQuery } from '../../src/query/filter.js'
import type { TokenStore } from '../../src/store/token-store.js'
import { okValue } from '../../src/testing/conformance/results.js'
import { userFixture } from '../../src/testing/index.js'
import { listQueryArbitrary, tokensArbitrary } from '../support/list-arbitraries.js'
import { migratedStore } from './support/conformance.js'
import {
  type DatabaseTarget,
  emptyTables,
  mariadb,
  pglite,
  postgres,
  sqliteMemory,
  uniquePrefix,
} from './support/databases.js'
import { describeDatabase } from './support/describe-database.js'

// Each run empties the tables, puts 3 users, 4 resources and up to 20 tokens, and asks 6 lists.
const RUNS = 30
const TYPES: readonly ResourceType[] = ['project', 'group']

const tokens = tokensArbitrary({
  namePieces: ['ci', 'Deploy', 'prod', '_'],
  minLength: 0,
  maxLength: 20,
  maxId: 10_000,
})
const world = fc.record({
  // Users 1..3 (the token arbitrary's owners): which are bots.
  bots: fc.tuple(fc.boolean(), fc.boolean(), fc.boolean()),
  // Project and group 1 and 2: which users are members.
  members: fc.array(fc.subarray([1, 2, 3]), { minLength: 4, maxLength: 4 }),
})
const resourceQuery = fc
  .tuple(
    listQueryArbitrary({ maxUserId: 3, searchPieces: ['ci', 'prod', 'de'], maxPage: 2 }),
    fc.constantFrom(...TYPES),
    fc.integer({ min: 1, max: 3 }),
  )
  .map(([query, type, id]): ListQuery => ({ ...query, filter: { ...query.filter, resource: { type, id } } }))

interface World {
  readonly bots: readonly boolean[]
  readonly members: readonly (readonly number[])[]
}

/** The same users, resources and members in both stores. */
async function put(store: TokenStore, { bots, members }: World): Promise<void> {
  const resources = store.resources
  if (resources === undefined) throw new Error('the store has no resources')
  for (const [k, bot] of bots.entries()) await okValue(store.putUser(userFixture(k + 1, { bot })))
  for (const [k, userIds] of members.entries()) {
    const id = (k % 2) + 1
    const list = userIds.map((userId) => ({ userId, accessLevel: 30 as AccessLevel }))
    const base = { id, path: `r${id}`, fullPath: `r${id}`, name: `R${id}`, visibility: 'private' as const }
    if (k < 2) await okValue(resources.putProject({ ...base, groupId: null, members: list }))
    else await okValue(resources.putGroup({ ...base, parentId: null, members: list }))
  }
}

function describeEquivalence(target: DatabaseTarget, tag: string): Promise<void> {
  const prefix = uniquePrefix(tag)
  return describeDatabase(target, prefix, (db) => {
    let store: TokenStore
    beforeAll(async () => {
      store = await migratedStore(db, prefix)
    })

    it(`lists a resource's tokens as memoryStore does (${RUNS} runs)`, { timeout: 120_000 }, async () => {
      await fc.assert(
        fc.asyncProperty(
          tokens,
          world,
          fc.array(resourceQuery, { minLength: 6, maxLength: 6 }),
          async (data, w, queries) => {
            await emptyTables(db, prefix)
            const reference = memoryStore()
            await put(store, w)
            await put(reference, w)
            for (const token of data) {
              await okValue(store.importToken(token))
              await okValue(reference.importToken(token))
            }
            for (const query of queries) {
              const expected = await okValue(reference.list(query))
              const actual = await okValue(store.list(query))
              expect(actual.total).toBe(expected.total)
              expect(actual.items).toEqual(expected.items)
            }
          },
        ),
        { numRuns: RUNS },
      )
    })
  })
}

await describeEquivalence(sqliteMemory, 'rsqlite')
await describeEquivalence(pglite, 'rpglite')
await describeEquivalence(postgres, 'rpg')
await describeEquivalence(mariadb, 'rmy')
