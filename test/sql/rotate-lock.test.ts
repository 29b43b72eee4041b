import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { expect, it } from 'vitest'
import { migrate, sqlStore } from '../../src/sql/index.js'
import { draftFactory } from '../../src/testing/fixtures.js'
import { type DatabaseTarget, POSTGRES_URL, uniquePrefix } from './support/databases.js'
import { describeDatabase } from './support/describe-database.js'

// Which statements a rotation sends on PostgreSQL. A rotation takes its family's root lock first
// (`select ... for update`, see src/sql/rotate.ts); a family's first rotation presents the root itself,
// whose conditional UPDATE is that lock, so it sends no separate one: one round trip fewer in the
// transaction every rotation holds open (docs/benchmarks.md, target 6). The races this lock decides are
// in concurrency.test.ts; this file pins where it is sent.

const sent: string[] = []
const logged: DatabaseTarget = {
  name: `PostgreSQL, statements logged (${POSTGRES_URL})`,
  server: true,
  open: () =>
    new Kysely({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: POSTGRES_URL, max: 2 }) }),
      log: (event) => {
        if (event.level === 'query') sent.push(event.query.sql)
      },
    }),
}

const prefix = uniquePrefix('rlock')

/** The statements of one call, shortened to their first words. */
async function statementsOf(call: () => Promise<unknown>): Promise<string[]> {
  sent.length = 0
  await call()
  return sent.map((statement) => statement.split(' "')[0] ?? statement)
}

await describeDatabase(logged, prefix, (db) => {
  it("a family's first rotation locks the root with its UPDATE; later ones lock the root first", async () => {
    const migrated = await migrate(db, { tablePrefix: prefix })
    if (migrated.isErr()) throw migrated.error.cause
    const store = sqlStore(db, { tablePrefix: prefix })
    const draft = draftFactory('rotate-lock')
    const root = (await store.insert(draft({ digest: 'rotate-lock-root' })))._unsafeUnwrap()

    let successor = root
    const first = await statementsOf(async () => {
      successor = (
        await store.rotate(root.id, draft({ previousId: root.id, familyId: root.familyId, digest: 'rl-1' }))
      )._unsafeUnwrap()
    })
    expect(first).toEqual(['begin', 'update', 'insert into', 'commit'])

    const second = await statementsOf(async () => {
      const next = await store.rotate(
        successor.id,
        draft({ previousId: successor.id, familyId: root.familyId, digest: 'rl-2' }),
      )
      expect(next.isOk()).toBe(true)
    })
    expect(second).toEqual(['begin', 'select', 'update', 'insert into', 'commit'])
    expect(sent[1]).toMatch(/ for update$/)
  })
})
