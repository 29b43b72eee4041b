import { sql } from 'kysely'
import pg from 'pg'
import { beforeAll, expect, it, vi } from 'vitest'
import { cachedStore } from '../../src/cache/index.js'
import { migrate, postgresInvalidation, sqlStore } from '../../src/sql/index.js'
import { okValue } from '../../src/testing/conformance/results.js'
import { draftFactory, userFixture } from '../../src/testing/index.js'
import { POSTGRES_URL, postgres, uniquePrefix } from '../sql/support/databases.js'
import { describeDatabase } from '../sql/support/describe-database.js'
import { describeCacheConformance } from './support/cache-conformance.js'
import { pollingChannel, postgresChannel, sqlDeployment } from './support/sql-deployment.js'
import { describeStaleDecisions } from './support/stale-decisions.js'

const prefix = uniquePrefix('cache_pg')

await describeDatabase(postgres, prefix, () => {
  describeCacheConformance({
    name: 'PostgreSQL, three pools, LISTEN/NOTIFY',
    deploy: (strict) =>
      sqlDeployment(postgres, prefix, strict, postgresChannel(`${prefix}${strict ? 's' : 'd'}_`)),
  })
  // The polling fallback works on PostgreSQL too (e.g. behind a pooler that drops LISTEN).
  describeCacheConformance({
    name: 'PostgreSQL, three pools, polling',
    deploy: (strict) => sqlDeployment(postgres, prefix, strict, pollingChannel(prefix)),
  })
})

const resyncPrefix = uniquePrefix('cache_pgre')

await describeDatabase(postgres, resyncPrefix, (db) => {
  it('after a lost LISTEN connection a cache serves nothing, then empties itself and serves again', {
    timeout: 20_000,
  }, async () => {
    const migrated = await migrate(db, { tablePrefix: resyncPrefix })
    if (migrated.isErr()) throw migrated.error.cause
    const channel = `${resyncPrefix}cache`
    const invalidation = postgresInvalidation({
      db,
      channel,
      // Named, so the test can find its LISTEN connection among the server's.
      listen: () => new pg.Client({ connectionString: POSTGRES_URL, application_name: channel }),
      heartbeatMs: 50,
      leaseMs: 300,
      reconnectMs: 1_000,
    })
    const inner = sqlStore(db, { tablePrefix: resyncPrefix })
    const cached = cachedStore(inner, { invalidation })
    try {
      await cached.ready()
      await okValue(cached.putUser(userFixture(2)))
      const token = await okValue(cached.insert(draftFactory('resync')({ userId: 2, expiresAt: null })))
      await okValue(cached.findByDigest(token.digest))
      await okValue(cached.findByDigest(token.digest))
      expect(cached.stats().hits).toBe(1)
      // The server drops the LISTEN connection; a revocation meanwhile reaches no one (written to the
      // store directly, as a message lost with the connection would be).
      await sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${channel}`.execute(
        db,
      )
      await vi.waitFor(() => expect(invalidation.live(Date.now())).toBe(false), { timeout: 5_000 })
      expect(await okValue(inner.revoke(token.id))).toBe('revoked')
      expect((await okValue(cached.findByDigest(token.digest)))?.revoked).toBe(true)
      await cached.ready()
      expect(cached.stats().resets).toBeGreaterThanOrEqual(1)
      expect((await okValue(cached.findByDigest(token.digest)))?.revoked).toBe(true)
      expect((await okValue(cached.findByDigest(token.digest)))?.revoked).toBe(true)
    } finally {
      await cached.close()
      await invalidation.close()
    }
  })
})

const stalePrefix = uniquePrefix('cache_pgst')

await describeDatabase(postgres, stalePrefix, (db) => {
  beforeAll(async () => {
    const migrated = await migrate(db, { tablePrefix: stalePrefix })
    if (migrated.isErr()) throw migrated.error.cause
  })
  describeStaleDecisions({ name: 'PostgreSQL', store: () => sqlStore(db, { tablePrefix: stalePrefix }) })
})
