import { describeSqlConformance } from './support/conformance.js'
import { mariadb, uniquePrefix } from './support/databases.js'
import { describeDatabase } from './support/describe-database.js'

const prefix = uniquePrefix('my')

await describeDatabase(mariadb, prefix, (db) => describeSqlConformance('MariaDB', db, prefix))
