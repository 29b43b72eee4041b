import Database from 'better-sqlite3'
import { type CompiledQuery, Kysely, SqliteDialect } from 'kysely'
import { describe, expect, it } from 'vitest'
import { migrate, sqlStore } from '../../src/sql/index.js'
import { okValue } from '../../src/testing/conformance/results.js'

const open = () => new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) })

describe('the SQL store’s resources', () => {
  it('are offered with integer user ids only (GitLab’s projects and groups)', async () => {
    const db = open()
    await okValue(migrate(db, { tablePrefix: 'i_' }))
    await okValue(migrate(db, { tablePrefix: 's_', userIdType: 'string' }))
    expect(sqlStore(db, { tablePrefix: 'i_' }).resources).toBeDefined()
    expect(sqlStore(db, { tablePrefix: 's_', userIdType: 'string' }).resources).toBeUndefined()
    await db.destroy()
  })

  it('lists a resource’s tokens through the members key and the tokens’ user index (SQLite plan)', async () => {
    const database = new Database(':memory:')
    const issued: CompiledQuery[] = []
    const db = new Kysely<unknown>({
      dialect: new SqliteDialect({ database }),
      log: (event) => {
        if (event.level === 'query') issued.push(event.query)
      },
    })
    await okValue(migrate(db, { tablePrefix: 'p_' }))
    issued.length = 0
    const store = sqlStore(db, { tablePrefix: 'p_' })
    expect(
      await okValue(
        store.list({
          filter: { resource: { type: 'project', id: 7 } },
          sort: 'id_asc',
          page: { page: 1, perPage: 20 },
          now: new Date('2026-06-15T12:00:00.000Z'),
        }),
      ),
    ).toEqual({ items: [], total: 0 })
    const count = issued[0]
    expect(count?.sql).toContain('count(*)')
    const plan = database
      .prepare(`explain query plan ${count?.sql ?? ''}`)
      .all(...(count?.parameters ?? []))
      .map((row) => (row as { detail: string }).detail)
      .join('\n')
    expect(plan).toContain('p_members_source_user_key')
    expect(plan).toContain('p_tokens_user_id_id_idx')
    await db.destroy()
  })
})
