import Database from 'better-sqlite3'
import fc from 'fast-check'
import { type CompiledQuery, type Kysely, Kysely as KyselyClass, SqliteDialect } from 'kysely'
import { beforeAll, describe, expect, it } from 'vitest'
import { migrate, sqlStore } from '../../src/sql/index.js'
import { resolveOptions } from '../../src/sql/options.js'
import { selectPage } from '../../src/sql/page-query.js'
import { decodeInteger } from '../../src/sql/token-row.js'
import { okValue } from '../../src/testing/conformance/results.js'
import { mariadb, pglite, postgres, sqliteMemory, uniquePrefix } from './support/databases.js'
import { describeDatabase } from './support/describe-database.js'

const EVENTS = 12
const at = new Date('2026-06-15T12:00:00.000Z')

async function appendEvents(db: Kysely<unknown>, prefix: string): Promise<number[]> {
  await okValue(migrate(db, { tablePrefix: prefix }))
  const audit = sqlStore(db, { tablePrefix: prefix }).resources?.audit
  if (audit === undefined) throw new Error('the SQL store has no audit with integer user ids')
  const ids: number[] = []
  for (let i = 0; i < EVENTS; i += 1) {
    const event = await okValue(
      audit.appendAuditEvent({
        authorId: 1,
        entityType: 'User',
        entityId: i,
        eventName: 'e',
        details: {},
        createdAt: at,
      }),
    )
    ids.push(event.id)
  }
  return ids
}

// The page of the events up to the k-th one, newest first, through the helper.
function eventsUpTo(db: Kysely<unknown>, prefix: string, bound: number, page: number, perPage: number) {
  const context = resolveOptions(db, { tablePrefix: prefix })
  return selectPage(
    context.db.selectFrom('audit_events').where('audit_events.id', '<=', bound),
    (matching) => matching.select('audit_events.id').orderBy('audit_events.id', 'desc'),
    { page, perPage },
    (row) => decodeInteger(row.id, 'id'),
  )
}

function describePages(label: string, db: Kysely<unknown>, prefix: string): void {
  describe(label, () => {
    let ids: number[] = []
    beforeAll(async () => {
      ids = await appendEvents(db, prefix)
    })

    it('returns the page of the matching rows in order and how many match, as a slice of them all', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: EVENTS }),
          fc.integer({ min: 1, max: 7 }),
          fc.integer({ min: 1, max: 5 }),
          async (matching, page, perPage) => {
            const chosen = ids.slice(0, matching)
            const bound = chosen.at(-1) ?? 0
            const newestFirst = [...chosen].reverse()
            const listed = await eventsUpTo(db, prefix, bound, page, perPage)
            expect(listed).toEqual({
              items: newestFirst.slice((page - 1) * perPage, page * perPage),
              total: chosen.length,
            })
            expect(Object.isFrozen(listed) && Object.isFrozen(listed.items)).toBe(true)
          },
        ),
        { numRuns: 20 },
      )
    })
  })
}

const prefix = uniquePrefix('pagequery')
for (const target of [sqliteMemory, pglite, postgres, mariadb]) {
  await describeDatabase(target, prefix, (db) => describePages(`selectPage on ${target.name}`, db, prefix))
}

describe('selectPage’s statements (SQLite)', () => {
  it('counts over the condition, then reads the page with the same condition, its order and window', async () => {
    const issued: CompiledQuery[] = []
    const db = new KyselyClass<unknown>({
      dialect: new SqliteDialect({ database: new Database(':memory:') }),
      log: (event) => {
        if (event.level === 'query') issued.push(event.query)
      },
    })
    const ids = await appendEvents(db, 'q_')
    const bound = ids[7] ?? 0
    issued.length = 0
    await eventsUpTo(db, 'q_', bound, 2, 3)
    expect(issued.map((query) => [query.sql, query.parameters])).toEqual([
      ['select count(*) as "total" from "q_audit_events" where "q_audit_events"."id" <= ?', [bound]],
      [
        'select "q_audit_events"."id" from "q_audit_events" where "q_audit_events"."id" <= ? order by "q_audit_events"."id" desc limit ? offset ?',
        [bound, 3, 3],
      ],
    ])
    issued.length = 0
    // A page at or past the total would be empty: the count alone answers it.
    expect(await eventsUpTo(db, 'q_', bound, 4, 3)).toEqual({ items: [], total: 8 })
    expect(issued.map((query) => query.sql)).toEqual([
      'select count(*) as "total" from "q_audit_events" where "q_audit_events"."id" <= ?',
    ])
    await db.destroy()
  })
})
