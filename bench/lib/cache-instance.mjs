/**
 * One instance of targets 14b and 14c, in a process of its own: the SQL store on PostgreSQL behind two
 * caches on one LISTEN/NOTIFY channel (default and strict mode), each with an authority. Driven by its
 * parent over IPC: `warm` (authenticate until cached), `probe` (authenticate in a loop until refused,
 * every millisecond, then report when it was refused and when every accepted attempt started), `revoke` (through the
 * cache of the given mode; reports when the call started and returned). Times are epoch milliseconds
 * with sub-millisecond precision, comparable across the processes of one machine.
 */

import { Kysely, PostgresDialect } from 'kysely'
import { createAuthority } from 'patkit'
import { systemClock } from 'patkit/authority'
import { cachedStore } from 'patkit/cache'
import { postgresInvalidation, sqlStore } from 'patkit/sql'
import pg from 'pg'
import { PEPPER } from './dataset.mjs'

const URL = process.env['PATKIT_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test'
const prefix = process.env['CACHE_BENCH_PREFIX'] ?? 'bench_prop_'
const now = () => performance.timeOrigin + performance.now()

const db = new Kysely({
  dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: URL, max: 4 }) }),
})
const invalidation = postgresInvalidation({
  db,
  channel: `${prefix}cache`,
  listen: () => new pg.Client({ connectionString: URL }),
})
const inner = sqlStore(db, { tablePrefix: prefix })
/** @type {Record<string, import('patkit/cache').CachedStore>} */
const stores = {
  default: cachedStore(inner, { invalidation }),
  strict: cachedStore(inner, { invalidation, strict: true }),
}
/** @type {Record<string, import('patkit').Authority>} */
const authorities = Object.fromEntries(
  Object.entries(stores).map(([mode, store]) => [
    mode,
    createAuthority({ store, pepper: PEPPER, clock: systemClock }),
  ]),
)
await Promise.all(Object.values(stores).map((store) => store.ready()))
// Waits one lease, so every instance has heard every other's heartbeat before the first revocation.
await new Promise((resolve) => setTimeout(resolve, 1_200))
const send = (/** @type {object} */ message) => process.send?.(message)
// A probe every millisecond, not a busy loop: two spinning observers would take both cores of a small
// machine from the revoker and the database, and measure that contention instead of the propagation.
const pause = () => new Promise((resolve) => setTimeout(resolve, 1))

process.on('message', async (/** @type {any} */ message) => {
  const authority = /** @type {import('patkit').Authority} */ (authorities[message.mode])
  if (message.type === 'warm') {
    for (let k = 0; k < 2; k++) {
      const principal = await authority.authenticate(message.secret)
      if (principal.isErr()) throw new Error(`warm: ${principal.error.type}`)
    }
    send({ type: 'warmed' })
  } else if (message.type === 'probe') {
    /** @type {number[]} */ const accepted = []
    send({ type: 'probing' })
    for (;;) {
      const started = now()
      const principal = await authority.authenticate(message.secret)
      if (principal.isErr()) {
        send({ type: 'probed', refusedAt: now(), accepted })
        return
      }
      accepted.push(started)
      await pause()
    }
  } else if (message.type === 'revoke') {
    const startedAt = now()
    const outcome = await stores[message.mode]?.revoke(message.id)
    if (outcome === undefined || outcome.isErr()) throw new Error('revoke failed')
    send({ type: 'revoked', startedAt, returnedAt: now() })
  } else if (message.type === 'stop') {
    await Promise.all(Object.values(stores).map((store) => store.close()))
    await invalidation.close()
    await db.destroy()
    process.exit(0)
  }
})
send({ type: 'ready' })
