import { threadId } from 'node:worker_threads'
import { afterAll, beforeEach } from 'vitest'
import { sqlStore } from '../../../../src/sql/index.js'
import { migratedStore } from '../../../sql/support/conformance.js'
import {
  connect,
  dropTables,
  emptyTables,
  postgres,
  reason,
  uniquePrefix,
} from '../../../sql/support/databases.js'
import { REQUIRE_DB } from '../../../sql/support/describe-database.js'
import { setSpecStore } from './spec-store.js'

// The setup file of the project `specs-postgres`: every ported GitLab spec file runs again with the
// fake over a SQL store on PostgreSQL, its tables migrated once per file and emptied for every world.
// An unreachable server skips the file with its reason printed, or fails it under PATKIT_REQUIRE_DB=1.

const connection = await connect(postgres)
if (!connection.ok) {
  const why = `PostgreSQL is unreachable: ${reason(connection.error)}`
  if (REQUIRE_DB) {
    beforeEach(() => {
      throw new Error(`${why} (PATKIT_REQUIRE_DB=1)`)
    })
  } else {
    console.info(
      `skipping the GitLab spec ports on PostgreSQL: ${why} (set PATKIT_REQUIRE_DB=1 to fail instead)`,
    )
    beforeEach((context) => context.skip())
  }
} else {
  const { db } = connection
  // Files of one worker run one after another and drop their tables: a worker's prefix is theirs.
  const prefix = uniquePrefix(`spec${threadId}`)
  await migratedStore(db, prefix)
  setSpecStore(async () => {
    await emptyTables(db, prefix)
    return sqlStore(db, { tablePrefix: prefix })
  })
  afterAll(async () => {
    setSpecStore(null)
    await dropTables(db, prefix)
    await db.destroy()
  })
}
