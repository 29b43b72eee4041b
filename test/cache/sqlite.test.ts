import { sqliteFile, uniquePrefix } from '../sql/support/databases.js'
import { describeDatabase } from '../sql/support/describe-database.js'
import { describeCacheConformance } from './support/cache-conformance.js'
import { pollingChannel, sqlDeployment } from './support/sql-deployment.js'

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
