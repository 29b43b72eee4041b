import { describeSqlConformance } from './support/conformance.js'
import { pglite, uniquePrefix } from './support/databases.js'
import { describeDatabase } from './support/describe-database.js'

const prefix = uniquePrefix('pglite')

await describeDatabase(pglite, prefix, (db) => describeSqlConformance('PGlite', db, prefix))
