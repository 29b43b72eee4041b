import { describeSqlConformance } from './support/conformance.js'
import { sqliteCached, sqliteFile, sqliteMemory, uniquePrefix } from './support/databases.js'
import { describeDatabase } from './support/describe-database.js'

const prefix = uniquePrefix('sqlite')

await describeDatabase(sqliteMemory, prefix, (db) => describeSqlConformance('SQLite :memory:', db, prefix))
await describeDatabase(sqliteFile(), prefix, (db) => describeSqlConformance('SQLite file', db, prefix))
await describeDatabase(sqliteCached, prefix, (db) =>
  describeSqlConformance('SQLite :memory: with the statement cache', db, prefix),
)
