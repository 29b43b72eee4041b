import type { Kysely } from 'kysely'
import pg from 'pg'
import { cachedStore, type InvalidationChannel } from '../../../src/cache/index.js'
import { migrate, pollingInvalidation, postgresInvalidation, sqlStore } from '../../../src/sql/index.js'
import { type DatabaseTarget, POSTGRES_URL } from '../../sql/support/databases.js'
import type { Deployment } from './cache-conformance.js'

/** Instances per deployment: each has its own Kysely instance (its own pool or file handle). */
export const INSTANCES = 3

/**
 * A deployment of `INSTANCES` instances on one database under `prefix`: each opens its own Kysely
 * instance from `target` and its own channel (`channel(db)`), as separate processes would. `shared`:
 * one Kysely instance for all (SQLite: better-sqlite3 waits for another connection's lock synchronously,
 * so two connections of one process writing at once block each other until the busy timeout).
 */
export async function sqlDeployment(
  target: DatabaseTarget,
  prefix: string,
  strict: boolean,
  channel: (db: Kysely<unknown>) => InvalidationChannel,
  shared = false,
): Promise<Deployment> {
  const one = shared ? target.open() : null
  const opened = Array.from({ length: INSTANCES }, () => one ?? target.open())
  const owned = shared ? [] : opened
  const migrated = await migrate(opened[0] as Kysely<unknown>, { tablePrefix: prefix })
  if (migrated.isErr()) throw migrated.error.cause
  const channels = opened.map((db) => channel(db))
  const instances = opened.map((db, i) =>
    cachedStore(sqlStore(db, { tablePrefix: prefix }), {
      invalidation: channels[i] as InvalidationChannel,
      strict,
    }),
  )
  return {
    instances,
    close: async () => {
      await Promise.all(instances.map((store) => store.close()))
      await Promise.all(channels.map((c) => c.close()))
      await Promise.all(owned.map((db) => db.destroy()))
    },
  }
}

/** LISTEN/NOTIFY on a channel of this prefix, with short heartbeats so a test waits little. */
export function postgresChannel(prefix: string): (db: Kysely<unknown>) => InvalidationChannel {
  return (db) =>
    postgresInvalidation({
      db,
      channel: `${prefix}cache`,
      listen: () => new pg.Client({ connectionString: POSTGRES_URL }),
      heartbeatMs: 50,
      leaseMs: 500,
      reconnectMs: 50,
    })
}

/** The change log, read every 20 ms (a read vouches for 500 ms, so a busy machine does not flap). */
export function pollingChannel(prefix: string): (db: Kysely<unknown>) => InvalidationChannel {
  return (db) => pollingInvalidation(db, { tablePrefix: prefix, intervalMs: 20, leaseMs: 500 })
}
