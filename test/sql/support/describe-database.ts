import type { Kysely } from 'kysely'
import { afterAll, describe, it } from 'vitest'
import { type Connection, connect, type DatabaseTarget, dropTables, reason } from './databases.js'

/** PATKIT_REQUIRE_DB=1 (CI): an unreachable server fails the run instead of skipping. */
export const REQUIRE_DB = process.env['PATKIT_REQUIRE_DB'] === '1'

/**
 * The timeout of every test on a database: a server is shared by the test files running at once
 * (and their races), and PGlite and SQLite compete with them for the CPU, so a test of one second
 * alone (a 40-round race of the conformance suite) takes several on a busy machine.
 */
export const DATABASE_TIMEOUT = 20_000

/**
 * Registers `body` against a database, and after it drops the prefix's tables and closes the pool.
 * An unreachable server skips the block with its reason printed, or, under PATKIT_REQUIRE_DB=1,
 * registers one failing test carrying the connection error.
 */
export async function describeDatabase(
  target: DatabaseTarget,
  prefix: string,
  body: (db: Kysely<unknown>) => void,
): Promise<void> {
  const connection: Connection = await connect(target)
  if (!connection.ok) {
    const why = `${target.name} is unreachable: ${reason(connection.error)}`
    if (REQUIRE_DB) {
      describe(target.name, () => {
        it('the database is reachable (PATKIT_REQUIRE_DB=1)', () => {
          throw connection.error instanceof Error ? connection.error : new Error(why)
        })
      })
      return
    }
    // A test helper, not library code: the reason belongs in the test output next to the skip.
    console.info(`skipping: ${why} (set PATKIT_REQUIRE_DB=1 to fail instead)`)
    // The same tests, registered as skipped, so the run's counts show what was left out. Nothing in
    // them runs, so the closed instance is never used.
    const closed = connection.db
    describe.skip(target.name, () => body(closed))
    return
  }
  const { db } = connection
  describe(target.name, { timeout: DATABASE_TIMEOUT }, () => {
    afterAll(async () => {
      await dropTables(db, prefix)
      await db.destroy()
      target.dispose?.()
    })
    body(db)
  })
}
