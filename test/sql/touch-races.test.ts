import type { Kysely } from 'kysely'
import mysql from 'mysql2/promise'
import pg from 'pg'
import { expect, it } from 'vitest'
import type { Token } from '../../src/domain/token.js'
import { migrate, sqlStore } from '../../src/sql/index.js'
import type { TokenStore } from '../../src/store/token-store.js'
import { draftFactory, userFixture } from '../../src/testing/fixtures.js'
import { MYSQL_URL, mariadb, POSTGRES_URL, postgresSerializable, uniquePrefix } from './support/databases.js'
import { describeDatabase } from './support/describe-database.js'

// Issue 28: under a reset on MariaDB, touchLastUsed lost a deadlock and failed the request it recorded
// (a 500 on a rotation). A write that lost a race did nothing; the store runs it again, as it runs a
// transaction again. Each test makes the race happen, deterministically, with a second connection.

const AT = new Date('2026-06-15T12:00:00.000Z')

async function seededStore(
  db: Kysely<unknown>,
  prefix: string,
): Promise<{ store: TokenStore; tokens: Token[] }> {
  const migrated = await migrate(db, { tablePrefix: prefix })
  if (migrated.isErr()) throw migrated.error.cause
  const store = sqlStore(db, { tablePrefix: prefix })
  ;(await store.putUser(userFixture(1)))._unsafeUnwrap()
  const draft = draftFactory(prefix)
  const tokens: Token[] = []
  for (let i = 0; i < 6; i++) tokens.push((await store.insert(draft({ userId: 1 })))._unsafeUnwrap())
  return { store, tokens }
}

/**
 * Polls `waiting` every `everyMs` until it is true: the store's write is queued behind the second
 * connection's lock.
 */
async function untilWaiting(waiting: () => Promise<boolean>, everyMs: number): Promise<void> {
  for (let poll = 0; poll < 10_000 / everyMs; poll++) {
    if (await waiting()) return
    await new Promise((resolve) => setTimeout(resolve, everyMs))
  }
  throw new Error('the store never waited on the lock')
}

const postgresPrefix = uniquePrefix('tlp')
await describeDatabase(postgresSerializable, postgresPrefix, (db) => {
  it('a touchLastUsed that fails to serialize against a committed update is run again and written', async () => {
    const { store, tokens } = await seededStore(db, postgresPrefix)
    const target = tokens[0]
    if (target === undefined) throw new Error('seeded')
    const holder = new pg.Client({ connectionString: POSTGRES_URL })
    await holder.connect()
    try {
      await holder.query('begin')
      await holder.query(`update "${postgresPrefix}tokens" set name = name where id = $1`, [target.id])
      const touched = store.touchLastUsed(target.id, AT, 0, null)
      await untilWaiting(async () => {
        // A transaction reads pg_stat_activity from a snapshot taken once: clear it for each poll.
        await holder.query('select pg_stat_clear_snapshot()')
        const { rows } = await holder.query(
          `select count(*)::int as n from pg_stat_activity
           where wait_event_type = 'Lock' and query like $1 and pid <> pg_backend_pid()`,
          [`%${postgresPrefix}tokens%`],
        )
        return (rows[0] as { n: number }).n > 0
      }, 5)
      // The update the store waited on commits: under SERIALIZABLE its write fails (40001), rolled back.
      await holder.query('commit')
      expect((await touched)._unsafeUnwrap()).toBe(true)
      expect((await store.findById(target.id))._unsafeUnwrap()?.lastUsedAt).toEqual(AT)
    } finally {
      await holder.end()
    }
  })
})

// InnoDB refreshes its information_schema tables only when they were last read 0.1 s ago or more.
const INNODB_REFRESH_MS = 150

const mariadbPrefix = uniquePrefix('tlm')
await describeDatabase(mariadb, mariadbPrefix, (db) => {
  it('a touchLastUsed chosen as a deadlock victim is run again and written', async () => {
    const { store, tokens } = await seededStore(db, mariadbPrefix)
    const [target, ...others] = tokens
    if (target === undefined) throw new Error('seeded')
    const table = `\`${mariadbPrefix}tokens\``
    const holder = await mysql.createConnection(MYSQL_URL)
    try {
      await holder.query('begin')
      // Rows changed first make this transaction the heavier one, so InnoDB rolls back the store's write.
      for (const other of others)
        await holder.query(`update ${table} set name = 'held' where id = ?`, [other.id])
      await holder.query(`select id from ${table} where id = ? lock in share mode`, [target.id])
      const touched = store.touchLastUsed(target.id, AT, 0, null)
      await untilWaiting(async () => {
        const [rows] = await holder.query(
          `select count(*) as n from information_schema.innodb_trx
           where trx_state = 'LOCK WAIT' and trx_query like ?`,
          [`%${mariadbPrefix}tokens%`],
        )
        return Number((rows as { n: number }[])[0]?.n) > 0
      }, INNODB_REFRESH_MS)
      // Holding the shared lock the store's write waits on, this transaction asks for the exclusive one
      // behind it: a deadlock, and the lighter transaction (the store's write) is rolled back (1213).
      await holder.query(`update ${table} set name = 'held' where id = ?`, [target.id])
      await holder.query('commit')
      expect((await touched)._unsafeUnwrap()).toBe(true)
      expect((await store.findById(target.id))._unsafeUnwrap()?.lastUsedAt).toEqual(AT)
    } finally {
      await holder.end()
    }
  })
})
