import { expect, it } from 'vitest'
import { migrate, sqlStore } from '../../src/sql/index.js'
import { draftFactory, userFixture } from '../../src/testing/fixtures.js'
import { type DatabaseTarget, mariadb, pglite, postgres, uniquePrefix } from './support/databases.js'
import { describeDatabase } from './support/describe-database.js'

// Two instances resetting one database at once (two `patkit serve` processes each sent a reset):
// both succeed and the data is the contents, once, whichever committed last.

const ROUNDS = 5

function register(target: DatabaseTarget, tag: string): Promise<void> {
  const prefix = uniquePrefix(tag)
  return describeDatabase(target, prefix, (db) => {
    it('concurrent replaceAll calls all succeed and leave the contents once', async () => {
      const migrated = await migrate(db, { tablePrefix: prefix })
      if (migrated.isErr()) throw migrated.error.cause
      const stores = [sqlStore(db, { tablePrefix: prefix }), sqlStore(db, { tablePrefix: prefix })]
      const draft = draftFactory()
      const tokens = [1, 2, 3].map((id) => ({ ...draft({ userId: 1, name: `t${id}` }), id, familyId: id }))
      const contents = { users: [userFixture(1)], tokens, groups: [], projects: [] }
      for (let round = 0; round < ROUNDS; round++) {
        const outcomes = await Promise.all(stores.map((store) => store.replaceAll?.(contents)))
        expect(outcomes.map((outcome) => outcome?.isOk())).toEqual([true, true])
        const listed = await stores[0]?.list({
          filter: {},
          sort: 'id_asc',
          page: { page: 1, perPage: 10 },
          now: new Date(),
        })
        expect(listed?._unsafeUnwrap().items.map((token) => token.id)).toEqual([1, 2, 3])
      }
    })
  })
}

await register(postgres, 'rarp')
await register(mariadb, 'rarm')
await register(pglite, 'rarg')
