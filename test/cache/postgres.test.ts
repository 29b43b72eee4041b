import { postgres, uniquePrefix } from '../sql/support/databases.js'
import { describeDatabase } from '../sql/support/describe-database.js'
import { describeCacheConformance } from './support/cache-conformance.js'
import { pollingChannel, postgresChannel, sqlDeployment } from './support/sql-deployment.js'

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
