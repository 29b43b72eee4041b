import { type Kysely, sql } from 'kysely'
import type { Invalidation, InvalidationChannel, InvalidationSink } from '../cache/invalidation.js'
import { type Clock, systemClock } from '../domain/clock.js'
import type { UserId } from '../domain/user-id.js'

/**
 * The part of a `pg` `Client` the channel uses: one dedicated connection that LISTENs. A `new
 * pg.Client(config)` is one.
 *
 * @example
 * ```ts
 * import pg from 'pg'
 * import type { ListenClient } from 'patkit/sql'
 * const client: ListenClient = new pg.Client({ connectionString: process.env.DATABASE_URL })
 * ```
 */
export interface ListenClient {
  connect(): Promise<unknown>
  query(text: string, values?: unknown[]): Promise<{ readonly rows: readonly unknown[] }>
  on(
    event: 'notification',
    listener: (message: { channel: string; payload?: string | undefined }) => void,
  ): unknown
  on(event: 'error', listener: (error: Error) => void): unknown
  on(event: 'end', listener: () => void): unknown
  end(): Promise<unknown>
}

/**
 * Options of {@link postgresInvalidation}.
 *
 * @example
 * ```ts
 * import pg from 'pg'
 * import type { PostgresInvalidationOptions } from 'patkit/sql'
 * const options: PostgresInvalidationOptions = {
 *   db,
 *   listen: () => new pg.Client({ connectionString: process.env.DATABASE_URL }),
 * }
 * ```
 */
export interface PostgresInvalidationOptions<DB = unknown> {
  /** Sends the invalidations (`pg_notify`, through the pool, like any other query of the store). */
  readonly db: Kysely<DB>
  /** A new, unconnected client for the LISTEN connection; called again to reconnect. */
  readonly listen: () => ListenClient
  /** The channel name; every instance of one deployment uses the same. Default `patkit_cache`. */
  readonly channel?: string
  /** How often an instance proves its connection delivers (a heartbeat it receives back). Default 200 ms. */
  readonly heartbeatMs?: number
  /**
   * How long a heartbeat received back vouches for the connection (the lease), in ms: the bound of the
   * default mode, and the longest a strict write waits for an instance that does not confirm. Default 1,000.
   */
  readonly leaseMs?: number
  /** Delay before reconnecting after the LISTEN connection is lost. Default 500 ms. */
  readonly reconnectMs?: number
  readonly clock?: Clock
  /** The LISTEN connection's failures (it reconnects by itself); the library never logs. */
  readonly onError?: (cause: unknown) => void
}

// Messages on the channel, as JSON: an invalidation, an acknowledgement of one, a heartbeat.
type Wire =
  | { t: 'i'; f: number; n: number; k: number[]; d: string[]; u: UserId[]; a?: 1 }
  | { t: 'a'; f: number; to: number; n: number }
  | { t: 'h'; f: number; n: number }

/**
 * The queries of one connection, one after the other: pg runs one at a time per connection, and a
 * query asked for while another runs is deprecated (an error from pg 9). Heartbeats and
 * acknowledgements are sent from timers and notification events, so nothing else orders them.
 */
function oneAtATime(client: ListenClient): (text: string, values: unknown[]) => Promise<unknown> {
  let last: Promise<unknown> = Promise.resolve()
  return (text, values) => {
    const next = last.then(() => client.query(text, values))
    last = next.then(
      () => undefined,
      () => undefined,
    )
    return next
  }
}

/** NOTIFY payloads must stay under 8,000 bytes: a long invalidation goes in several messages. */
const MAX_PAYLOAD = 7_000

function chunks(message: Invalidation): Invalidation[] {
  const out: Invalidation[] = []
  let tokenIds: number[] = []
  let digests: string[] = []
  let size = 0
  const push = () => {
    out.push({ tokenIds, digests, userIds: [] })
    tokenIds = []
    digests = []
    size = 0
  }
  for (const id of message.tokenIds) {
    if (size > MAX_PAYLOAD) push()
    tokenIds.push(id)
    size += String(id).length + 1
  }
  for (const digest of message.digests) {
    if (size > MAX_PAYLOAD) push()
    digests.push(digest)
    size += digest.length + 3
  }
  if (tokenIds.length > 0 || digests.length > 0 || out.length === 0) push()
  const first = out[0]
  if (first !== undefined && message.userIds.length > 0) out[0] = { ...first, userIds: [...message.userIds] }
  const head = out[0]
  if (head !== undefined && message.everything === true) out[0] = { ...head, everything: true }
  return out
}

// One strict publish in flight: the acknowledgements and echoes that arrived for its numbers.
interface Waiter {
  readonly numbers: ReadonlySet<number>
  readonly acks: Set<string>
  readonly echoes: Set<number>
  /** Called after every arrival; the publish decides whether it is done. */
  wake: () => void
}

/**
 * Cache invalidation over PostgreSQL LISTEN/NOTIFY, for `cachedStore` on every instance of one
 * deployment. It LISTENs on a dedicated connection before the cache serves anything, and after a lost
 * connection reconnects, LISTENs again and empties the caches (messages sent meanwhile are lost).
 *
 * Each instance sends itself a heartbeat every `heartbeatMs`; receiving it back proves every message
 * sent before it arrived (PostgreSQL delivers notifications in commit order), and vouches for the
 * connection for `leaseMs` from its sending. Without a valid lease the cache serves nothing from memory.
 * So a write that stops a token is refused everywhere at most `leaseMs` after it returned. In strict
 * mode the write waits for an acknowledgement from every instance heard from during the last lease, at
 * most `leaseMs`: when it returns, every instance has dropped the token or serves nothing from memory.
 *
 * @example
 * ```ts
 * import pg from 'pg'
 * import { cachedStore } from 'patkit/cache'
 * import { postgresInvalidation, sqlStore } from 'patkit/sql'
 *
 * const connectionString = process.env.DATABASE_URL
 * const invalidation = postgresInvalidation({ db, listen: () => new pg.Client({ connectionString }) })
 * const store = cachedStore(sqlStore(db), { invalidation, strict: true })
 * ```
 */
export function postgresInvalidation<DB>(options: PostgresInvalidationOptions<DB>): InvalidationChannel {
  const channel = options.channel ?? 'patkit_cache'
  const heartbeatMs = options.heartbeatMs ?? 200
  const leaseMs = options.leaseMs ?? 1_000
  const reconnectMs = options.reconnectMs ?? 500
  const clock = options.clock ?? systemClock
  const onError = options.onError ?? (() => {})
  const now = () => clock.now().getTime()
  const sinks = new Set<InvalidationSink>()
  const peers = new Map<number, number>() // backend pid -> when its last heartbeat arrived
  const heartbeats = new Map<number, number>() // heartbeat number -> when it was sent
  const waiters = new Set<Waiter>()
  const readyWaiters: Array<() => void> = []
  let client: ListenClient | null = null
  // The LISTEN connection's queries after its LISTEN (heartbeats, acknowledgements), in turn.
  let query: ((text: string, values: unknown[]) => Promise<unknown>) | null = null
  // A heartbeat still waiting for its turn or its answer: another would only queue up behind it.
  let beating = false
  let self = 0 // this connection's backend pid: unique among live connections
  let listeningSince = 0
  let leaseUntil = 0
  let sequence = 0
  let heartbeatTimer: ReturnType<typeof setInterval> | undefined
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined
  let closed = false
  let connecting: Promise<void> | null = null

  const send = (wire: Wire) => query?.('select pg_notify($1, $2)', [channel, JSON.stringify(wire)])
  const receive = (payload: string) => {
    let wire: Wire
    try {
      wire = JSON.parse(payload) as Wire
    } catch (cause) {
      // Someone else's NOTIFY on the channel: not ours to act on, and no reason to stop listening.
      onError(cause)
      return
    }
    if (wire.t === 'h') {
      if (wire.f !== self) {
        peers.set(wire.f, now())
        return
      }
      const sentAt = heartbeats.get(wire.n)
      if (sentAt === undefined) return
      for (const n of heartbeats.keys()) if (n <= wire.n) heartbeats.delete(n)
      const wasLive = leaseUntil > now()
      leaseUntil = Math.max(leaseUntil, sentAt + leaseMs)
      if (!wasLive) for (const resolve of readyWaiters.splice(0)) resolve()
    } else if (wire.t === 'i') {
      if (wire.f === self) {
        for (const waiter of waiters) {
          if (!waiter.numbers.has(wire.n)) continue
          waiter.echoes.add(wire.n)
          waiter.wake()
        }
        return
      }
      const message: Invalidation = {
        tokenIds: wire.k,
        digests: wire.d,
        userIds: wire.u,
        ...(wire.a === 1 ? { everything: true } : {}),
      }
      for (const sink of sinks) sink.apply(message)
      void send({ t: 'a', f: self, to: wire.f, n: wire.n })?.catch(onError)
    } else if (wire.to === self) {
      for (const waiter of waiters) {
        if (!waiter.numbers.has(wire.n)) continue
        waiter.acks.add(`${wire.f}:${wire.n}`)
        waiter.wake()
      }
    }
  }
  const lose = (cause: unknown) => {
    if (client === null) return
    onError(cause)
    const lost = client
    client = null
    query = null
    leaseUntil = 0
    if (heartbeatTimer !== undefined) clearInterval(heartbeatTimer)
    void lost.end().catch(() => {})
    if (!closed) {
      reconnectTimer = setTimeout(() => void start(), reconnectMs)
      reconnectTimer.unref?.()
    }
  }
  const heartbeat = () => {
    const on = client
    if (beating || on === null) return
    const n = ++sequence
    heartbeats.set(n, now())
    beating = true
    // The answer of a connection since replaced (lost, then reconnected) concerns it alone.
    void send({ t: 'h', f: self, n })?.then(
      () => {
        if (client === on) beating = false
      },
      (cause: unknown) => {
        if (client !== on) return
        beating = false
        lose(cause)
      },
    )
  }
  const connect = async () => {
    const next = options.listen()
    next.on('notification', (message) => {
      if (message.channel === channel && message.payload !== undefined) receive(message.payload)
    })
    next.on('error', (error) => lose(error))
    next.on('end', () => lose(new Error('LISTEN connection ended')))
    try {
      await next.connect()
      const [row] = (await next.query('select pg_backend_pid() as pid')).rows as Array<{ pid: number }>
      await next.query(`listen ${JSON.stringify(channel)}`)
      if (closed) {
        await next.end()
        return
      }
      client = next
      query = oneAtATime(next)
      beating = false
      self = Number(row?.pid)
      listeningSince = now()
      peers.clear()
      heartbeats.clear()
      // Everything cached before this LISTEN may have missed messages: start over.
      for (const sink of sinks) sink.reset()
      heartbeat()
      heartbeatTimer = setInterval(heartbeat, heartbeatMs)
      heartbeatTimer.unref?.()
    } catch (cause) {
      client = next
      lose(cause)
    }
  }
  const start = () => {
    connecting ??= connect().finally(() => {
      connecting = null
    })
    return connecting
  }

  // Strict: once this instance received its own message back, it has also received every heartbeat
  // sent before it, so it knows every instance whose lease could still cover a moment before the
  // message: those heard from since `before - leaseMs`. It waits for their acknowledgements, and for
  // an instance that does not answer, until its lease has ended (at most `deadline`). An instance that
  // has not listened a whole lease yet may not know every other one, so it waits the whole lease.
  const confirmed = (waiter: Waiter, before: number, deadline: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.max(0, deadline - now()))
      const knowsEveryone = () => client !== null && listeningSince <= before - leaseMs
      waiter.wake = () => {
        if (closed) {
          clearTimeout(timer)
          resolve()
          return
        }
        if (waiter.echoes.size < waiter.numbers.size || !knowsEveryone()) return
        for (const [pid, heardAt] of peers) {
          if (heardAt < before - leaseMs) continue
          for (const n of waiter.numbers) if (!waiter.acks.has(`${pid}:${n}`)) return
        }
        clearTimeout(timer)
        resolve()
      }
      waiter.wake()
    })

  void start()
  return {
    boundMs: leaseMs,
    subscribe(sink) {
      sinks.add(sink)
      return () => sinks.delete(sink)
    },
    live: (at) => at < leaseUntil,
    async publish(message, { strict }) {
      const before = now()
      const numbers = new Set<number>()
      const waiter: Waiter = { numbers, acks: new Set(), echoes: new Set(), wake: () => {} }
      if (strict) waiters.add(waiter)
      try {
        for (const part of chunks(message)) {
          const n = ++sequence
          numbers.add(n)
          const wire: Wire = {
            t: 'i',
            f: self,
            n,
            k: [...part.tokenIds],
            d: [...part.digests],
            u: [...part.userIds],
            ...(part.everything === true ? { a: 1 as const } : {}),
          }
          await sql`select pg_notify(${channel}, ${JSON.stringify(wire)})`.execute(options.db)
        }
        if (strict) await confirmed(waiter, before, now() + leaseMs)
      } finally {
        waiters.delete(waiter)
      }
    },
    ready: () =>
      leaseUntil > now() ? Promise.resolve() : new Promise<void>((resolve) => readyWaiters.push(resolve)),
    async close() {
      closed = true
      if (reconnectTimer !== undefined) clearTimeout(reconnectTimer)
      if (heartbeatTimer !== undefined) clearInterval(heartbeatTimer)
      for (const waiter of waiters) waiter.wake()
      await connecting
      const open = client
      client = null
      query = null
      leaseUntil = 0
      sinks.clear()
      if (open !== null) await open.end().catch(() => {})
    },
  }
}
