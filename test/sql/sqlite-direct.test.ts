import Database from 'better-sqlite3'
import { Kysely, SqliteDialect, sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { migrate, sqliteStatementCache, sqlStore } from '../../src/sql/index.js'
import { draftFactory } from '../../src/testing/index.js'
import { describeSqlConformance } from './support/conformance.js'
import { uniquePrefix } from './support/databases.js'
import { describeDatabase } from './support/describe-database.js'

const prefix = uniquePrefix('sqlite_direct')
const conformanceDatabase = new Database(':memory:')

await describeDatabase(
  {
    name: 'SQLite (:memory:, statement cache, direct reads)',
    server: false,
    open: () =>
      new Kysely({ dialect: new SqliteDialect({ database: sqliteStatementCache(conformanceDatabase) }) }),
  },
  prefix,
  (db) =>
    describeSqlConformance('SQLite :memory: with direct reads', db, prefix, {
      sqliteDatabase: conformanceDatabase,
    }),
)

describe('sqlStore with sqliteDatabase', () => {
  it('reads the committed row while a transaction is open on the connection, not its uncommitted writes', async () => {
    const database = new Database(':memory:')
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database }) })
    const migrated = await migrate(db, { tablePrefix: 'direct_' })
    if (migrated.isErr()) throw migrated.error.cause
    const store = sqlStore(db, { tablePrefix: 'direct_', sqliteDatabase: database })
    const find = store.findByDigestWithUser
    if (find === undefined) throw new Error('the SQL store has the joined lookup')
    const inserted = await store.insert(draftFactory('direct')())
    if (inserted.isErr()) throw new Error(inserted.error.type)
    let pending: ReturnType<typeof find> | undefined
    const rolledBack = new Error('roll back')
    await expect(
      db.transaction().execute(async (trx) => {
        await sql`update direct_tokens set revoked = 1 where id = ${inserted.value.id}`.execute(trx)
        pending = find(inserted.value.digest)
        throw rolledBack
      }),
    ).rejects.toBe(rolledBack)
    if (pending === undefined) throw new Error('the lookup was started')
    const found = await pending
    expect(found.isOk() && found.value?.token.revoked).toBe(false)
    await db.destroy()
  })

  it('answers a direct read that fails (no tables yet) as a store_failure, neither thrown nor rejected', async () => {
    const database = new Database(':memory:')
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database }) })
    const store = sqlStore(db, { tablePrefix: 'unmigrated_', sqliteDatabase: database })
    const found = await store.findByDigestWithUser('any digest')
    expect(found.isErr() && found.error.type).toBe('store_failure')
    expect(found.isErr() && found.error.cause).toBeInstanceOf(Error)
  })

  it('is refused on another dialect, where there is no better-sqlite3 database to read', () => {
    const database = new Database(':memory:')
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database }) })
    expect(() => sqlStore(db, { dialect: 'postgres', sqliteDatabase: database })).toThrow(TypeError)
  })
})
