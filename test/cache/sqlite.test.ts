import { beforeAll } from 'vitest'
import { migrate, sqlStore } from '../../src/sql/index.js'
import { sqliteFile, uniquePrefix } from '../sql/support/databases.js'
import { describeDatabase } from '../sql/support/describe-database.js'
import { describeCacheConformance } from './support/cache-conformance.js'
import { pollingChannel, sqlDeployment } from './support/sql-deployment.js'
import { describeStaleDecisions } from './support/stale-decisions.js'

const prefix = uniquePrefix('cache_lite')
const file = sqliteFile()

// Three stores, each with its own cache and poller, on one connection to one file (see sqlDeployment
// for why one connection); separate processes on one file are in processes.test.ts.
await describeDatabase(file, prefix, (db) => {
  const one = { ...file, open: () => db }
  describeCacheConformance({
    name: 'SQLite file, three stores, polling',
    deploy: (strict) => sqlDeployment(one, prefix, strict, pollingChannel(prefix), true),
  })
})

const staleFile = sqliteFile()
const stalePrefix = uniquePrefix('cache_litest')

await describeDatabase(staleFile, stalePrefix, (db) => {
  beforeAll(async () => {
    const migrated = await migrate(db, { tablePrefix: stalePrefix })
    if (migrated.isErr()) throw migrated.error.cause
  })
  describeStaleDecisions({ name: 'SQLite file', store: () => sqlStore(db, { tablePrefix: stalePrefix }) })
})
