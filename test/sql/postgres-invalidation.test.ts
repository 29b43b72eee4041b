import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { afterEach, expect, it, vi } from 'vitest'
import type { Invalidation, InvalidationChannel } from '../../src/cache/index.js'
import { type ListenClient, postgresInvalidation } from '../../src/sql/index.js'
import { POSTGRES_URL, postgres, uniquePrefix } from './support/databases.js'
import { describeDatabase } from './support/describe-database.js'

// Issue 19, item 10: the LISTEN connection of postgresInvalidation sends heartbeats and
// acknowledgements; pg runs one query at a time per connection, and a query asked for while another
// runs is deprecated ("client.query() when the client is already executing a query", an error in
// pg 9). The channel must send them one after the other.

const prefix = uniquePrefix('pginval')
const warnings: string[] = []
const onWarning = (warning: Error) => warnings.push(warning.message)
const opened: InvalidationChannel[] = []
afterEach(async () => {
  process.off('warning', onWarning)
  await Promise.all(opened.splice(0).map((channel) => channel.close()))
})

/**
 * A real pg client whose answers reach the channel `holdMs` late (a slow network): the channel asks
 * for its next query while the last one is still in flight unless it waits for it. Counts the
 * queries asked for while another was in flight.
 */
function slowAnswers(holdMs: number) {
  const watched = { queries: 0, inFlight: 0, overlapping: 0 }
  const listen = (): ListenClient => {
    const client = new pg.Client({ connectionString: POSTGRES_URL })
    // The client's own `on`, for the three events the channel listens to.
    const on = (event: 'notification' | 'error' | 'end', listener: (...args: never[]) => void) =>
      client.on(event as 'end', listener as () => void)
    return {
      connect: () => client.connect(),
      async query(text, values) {
        watched.queries++
        if (watched.inFlight > 0) watched.overlapping++
        watched.inFlight++
        try {
          const result = await client.query(text, values)
          await sleep(holdMs)
          return result
        } finally {
          watched.inFlight--
        }
      },
      on: on as ListenClient['on'],
      end: () => client.end(),
    }
  }
  return { watched, listen }
}

await describeDatabase(postgres, prefix, (db) => {
  it('sends heartbeats and acknowledgements on the LISTEN connection one query at a time', {
    timeout: 20_000,
  }, async () => {
    process.on('warning', onWarning)
    const channel = `${prefix}cache`
    const { watched, listen } = slowAnswers(30)
    // Heartbeats every 5 ms, each answer 30 ms late: a channel that does not wait overlaps at once.
    // A's lease is long enough that a busy machine stalling this worker for a second does not end it.
    const a = postgresInvalidation({ db, channel, listen, heartbeatMs: 5, leaseMs: 5_000 })
    const b = postgresInvalidation({
      db,
      channel,
      listen: () => new pg.Client({ connectionString: POSTGRES_URL }),
      heartbeatMs: 20,
      leaseMs: 1_000,
    })
    opened.push(a, b)
    const received: Invalidation[] = []
    a.subscribe({ apply: (message) => received.push(message), reset: () => {} })
    await Promise.all([a.ready(), b.ready()])
    // A burst of invalidations from B: A acknowledges each, between its heartbeats.
    const burst = Array.from({ length: 20 }, (_, k) => ({ tokenIds: [k + 1], digests: [], userIds: [] }))
    await Promise.all(burst.map((message) => b.publish(message, { strict: false })))
    await vi.waitFor(() => expect(received.length).toBe(burst.length), { timeout: 10_000, interval: 10 })
    // A strict write of B: A acknowledges it too (B waits at most the lease, listening so briefly).
    await b.publish({ tokenIds: [99], digests: [], userIds: [] }, { strict: true })
    await vi.waitFor(() => expect(received.length).toBe(burst.length + 1), { timeout: 10_000 })
    // Every acknowledgement was sent (one per message), and the heartbeats went on.
    await vi.waitFor(() => expect(watched.queries).toBeGreaterThan(burst.length + 1 + 2), { timeout: 10_000 })
    expect(a.live(Date.now())).toBe(true)
    expect(watched.overlapping).toBe(0)
    expect(warnings.filter((w) => w.includes('already executing a query'))).toEqual([])
  })
})
