import Database from 'better-sqlite3'
import { type CompiledQuery, Kysely, SqliteDialect } from 'kysely'
import { expect, it } from 'vitest'
import { migrate, sqlStore } from '../../src/sql/index.js'

// The joined lookup of `authenticate` wraps its digest condition in likelihood() on SQLite, so that
// STAT4 (better-sqlite3 is built with it) does not prepare it again for every digest. The probability
// it gives must still let the planner pick the digest's unique index once ANALYZE has sampled the
// tables: a probability of 1.0, say, makes it scan every token.
it('looks the presented digest up through its unique index on an analyzed SQLite database', async () => {
  const database = new Database(':memory:')
  const issued: CompiledQuery[] = []
  const db = new Kysely<unknown>({
    dialect: new SqliteDialect({ database }),
    log: (event) => {
      if (event.level === 'query') issued.push(event.query)
    },
  })
  const migrated = await migrate(db, { tablePrefix: 'plan_' })
  if (migrated.isErr()) throw migrated.error.cause
  database.exec(`
    insert into plan_users (id, username, username_lower, admin, blocked)
      with recursive seq(u) as (select 1 union all select u + 1 from seq where u < 200)
      select u, 'user' || u, 'user' || u, 0, 0 from seq;
    insert into plan_tokens (user_id, name, scopes, created_at, family_id, digest)
      with recursive seq(i) as (select 1 union all select i + 1 from seq where i < 5000)
      select 1 + i % 200, 'token ' || i, '["api"]', '2024-01-01T00:00:00.000Z', i, 'digest-' || i from seq;
    analyze;
  `)
  expect(database.prepare('select count(*) as n from sqlite_stat4').get()).not.toEqual({ n: 0 })
  // Without the direct database, the store's SQL goes through Kysely, whose log shows it.
  const store = sqlStore(db, { tablePrefix: 'plan_' })
  issued.length = 0
  const found = await store.findByDigestWithUser('digest-42')
  expect(found.isOk() && found.value?.token.name).toBe('token 42')
  const [lookup] = issued
  if (lookup === undefined) throw new Error('the lookup issued a statement')
  const plan = database
    .prepare(`explain query plan ${lookup.sql}`)
    .all(...lookup.parameters)
    .map((row) => (row as { detail: string }).detail)
  expect(plan[0]).toBe('SEARCH plan_tokens USING INDEX plan_tokens_digest_key (digest=?)')
  await db.destroy()
})
