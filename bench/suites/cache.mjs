/**
 * Target 14a: authenticate on PostgreSQL through the verification cache (`cachedStore` over
 * `sqlStore`, invalidated by LISTEN/NOTIFY) against authenticate on the memory store, the same tokens
 * in both (at most 100,000: the figure measures the hit path, which does not depend on the count, and
 * the population is the slow part). The cached side answers from memory after the first lookup of each
 * secret; every measured call is a hit. Skipped, with the reason, when PostgreSQL cannot be reached.
 */

import { Kysely, PostgresDialect } from 'kysely'
import { createAuthority } from 'patkit'
import { cachedStore } from 'patkit/cache'
import { manualClock } from 'patkit/fake'
import { migrate, postgresInvalidation, sqlStore } from 'patkit/sql'
import pg from 'pg'
import { alternate } from '../lib/compare.mjs'
import { NOW, PEPPER, sampleIndexes, secretOf } from '../lib/dataset.mjs'
import { memoryPopulation } from '../lib/memory-population.mjs'
import { dropPostgres, populatePostgres } from '../lib/sql-population.mjs'
import { finish, progress, settings, targetFrom } from '../lib/suite.mjs'

const BATCH = 32
const config = settings()
const n = Math.min(config.n, 100_000)
const URL = process.env['PATKIT_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test'
// A prefix of its own: Kysely's migrator looks for its lock table by name in every schema.
const PREFIX = 'bench_cache_'
const TITLE = 'PostgreSQL authenticate through the cache vs memory store authenticate'

const pool = new pg.Pool({ connectionString: URL, max: 4, connectionTimeoutMillis: 3000 })
try {
  await pool.query('select 1')
} catch (error) {
  await pool.end().catch(() => {})
  finish({
    targets: [],
    skipped: [{ id: '14a', title: TITLE, reason: `PostgreSQL unreachable at ${URL}: ${String(error)}` }],
  })
  await new Promise(() => {})
}

const db = new Kysely({ dialect: new PostgresDialect({ pool }) })
const started = performance.now()
await dropPostgres(pool, PREFIX)
// Migrated on a connection of its own, as the PostgreSQL suite does.
const single = new Kysely({
  dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: URL, max: 1 }) }),
})
const migrated = await migrate(single, { tablePrefix: PREFIX })
await single.destroy()
if (migrated.isErr()) throw migrated.error.cause
const client = await pool.connect()
try {
  await populatePostgres(client, n, PREFIX)
} finally {
  client.release()
}
const { authority: memory } = await memoryPopulation(n)
progress(`cache: ${n} tokens in PostgreSQL and in memory in ${Math.round(performance.now() - started)} ms`)

const invalidation = postgresInvalidation({
  db,
  channel: `${PREFIX}cache`,
  listen: () => new pg.Client({ connectionString: URL }),
})
const store = cachedStore(sqlStore(db, { tablePrefix: PREFIX }), { invalidation })
await store.ready()
const cached = createAuthority({ store, pepper: PEPPER, clock: manualClock(NOW) })

const secrets = sampleIndexes(n, 1024).map(secretOf)
const mask = secrets.length - 1
// Every secret once through the cache, so the measured calls are hits (as on a warm instance).
for (const secret of secrets) {
  const principal = await cached.authenticate(secret)
  if (principal.isErr()) throw new Error(`authenticate: ${principal.error.type}`)
}
let next = 0
/** @param {import('patkit').Authority} authority */
const contender = (authority) => async () => {
  for (let k = 0; k < BATCH; k++) {
    const principal = await authority.authenticate(secrets[next++ & mask])
    if (principal.isErr()) throw new Error(`authenticate: ${principal.error.type}`)
  }
}
const comparison = await alternate({
  baseline: { name: 'memory store authenticate', batch: BATCH, fn: contender(memory) },
  subject: { name: 'PostgreSQL + cache authenticate', batch: BATCH, fn: contender(cached) },
  rounds: config.rounds,
  timeMs: config.timeMs,
  warmupMs: config.warmupMs,
})
const stats = store.stats()
await store.close()
await invalidation.close()
await dropPostgres(pool, PREFIX)
await db.destroy()

finish({
  targets: [
    targetFrom(
      {
        id: '14a',
        title: `${TITLE} (${n.toLocaleString('en')} tokens, LISTEN/NOTIFY)`,
        direction: 'min',
        threshold: 0.8,
        note: `cache: ${stats.hits.toLocaleString('en')} hits, ${stats.misses} misses`,
      },
      comparison,
    ),
  ],
})
