import { mariadb, uniquePrefix } from '../sql/support/databases.js'
import { describeDatabase } from '../sql/support/describe-database.js'
import { describeCacheConformance } from './support/cache-conformance.js'
import { pollingChannel, sqlDeployment } from './support/sql-deployment.js'

const prefix = uniquePrefix('cache_my')

await describeDatabase(mariadb, prefix, () => {
  describeCacheConformance({
    name: 'MariaDB/MySQL, three pools, polling',
    deploy: (strict) => sqlDeployment(mariadb, prefix, strict, pollingChannel(prefix)),
  })
})
