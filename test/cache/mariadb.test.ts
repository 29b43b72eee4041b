import { beforeAll } from 'vitest'
import { migrate, sqlStore } from '../../src/sql/index.js'
import { mariadb, uniquePrefix } from '../sql/support/databases.js'
import { describeDatabase } from '../sql/support/describe-database.js'
import { describeCacheConformance } from './support/cache-conformance.js'
import { pollingChannel, sqlDeployment } from './support/sql-deployment.js'
import { describeStaleDecisions } from './support/stale-decisions.js'

const prefix = uniquePrefix('cache_my')

await describeDatabase(mariadb, prefix, () => {
  describeCacheConformance({
    name: 'MariaDB/MySQL, three pools, polling',
    deploy: (strict) => sqlDeployment(mariadb, prefix, strict, pollingChannel(prefix)),
  })
})

const stalePrefix = uniquePrefix('cache_myst')

await describeDatabase(mariadb, stalePrefix, (db) => {
  beforeAll(async () => {
    const migrated = await migrate(db, { tablePrefix: stalePrefix })
    if (migrated.isErr()) throw migrated.error.cause
  })
  describeStaleDecisions({ name: 'MariaDB/MySQL', store: () => sqlStore(db, { tablePrefix: stalePrefix }) })
})
