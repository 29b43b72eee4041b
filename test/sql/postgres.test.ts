import { describeSqlConformance } from './support/conformance.js'
import { postgres, uniquePrefix } from './support/databases.js'
import { describeDatabase } from './support/describe-database.js'

const prefix = uniquePrefix('pg')

await describeDatabase(postgres, prefix, (db) => describeSqlConformance('PostgreSQL', db, prefix))
