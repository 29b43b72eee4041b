import type { Kysely } from 'kysely'
import type { Invalidation, InvalidationChannel, InvalidationSink } from '../cache/invalidation.js'
import { type Clock, systemClock } from '../domain/clock.js'
import type { UserId } from '../domain/user-id.js'
import { resolveOptions, type SqlStoreOptions } from './options.js'

/**
 * Options of {@link pollingInvalidation}: the store's own (`tablePrefix`, `dialect`) and the rhythm.
 *
 * @example
 * ```ts
 * import type { PollingInvalidationOptions } from 'patkit/sql'
 * const options: PollingInvalidationOptions = { intervalMs: 50 }
 * ```
 */
export interface PollingInvalidationOptions extends SqlStoreOptions {
  /** How often the change log is read, in ms. Default 100. */
  readonly intervalMs?: number
  /**
   * How long a successful read vouches for the cache, from its start, in ms: the bound of the default
   * mode, and how long a strict write waits. Default 5 x `intervalMs`.
   */
  readonly leaseMs?: number
  /** How long a change is kept before any instance deletes it, in ms. Default 10 minutes. */
  readonly retainMs?: number
  readonly clock?: Clock
  /** Failed reads, writes and deletions (the next read tries again); the library never logs. */
  readonly onError?: (cause: unknown) => void
}

/**
 * A number the log skipped may still appear (an insert that took its number earlier commits later);
 * after this long it is taken as never coming (a rolled-back insert).
 */
const GAP_MS = 5_000

/**
 * Cache invalidation through a change log table, `<tablePrefix>cache_changes` (schema version 0004),
 * for every SQL dialect: MySQL/MariaDB and SQLite have no LISTEN/NOTIFY. A write appends its
 * invalidation; every instance reads the rows after the last one it saw every `intervalMs` (a number
 * skipped by a concurrent insert is read again until it appears, or for 5 s).
 *
 * A read that succeeded vouches for the cache for `leaseMs` from its start; without one the cache serves
 * nothing from memory. So a write that stops a token is refused everywhere at most `leaseMs` after it
 * returned; in strict mode the write waits `leaseMs`, after which every instance has read it or serves
 * nothing from memory.
 *
 * @example
 * ```ts
 * import { cachedStore } from 'patkit/cache'
 * import { migrate, pollingInvalidation, sqlStore } from 'patkit/sql'
 *
 * await migrate(db)
 * const store = cachedStore(sqlStore(db), { invalidation: pollingInvalidation(db, { intervalMs: 50 }) })
 * ```
 */
export function pollingInvalidation<DB>(
  anyDb: Kysely<DB>,
  options: PollingInvalidationOptions = {},
): InvalidationChannel {
  const { db, dialect } = resolveOptions(anyDb, options)
  const intervalMs = options.intervalMs ?? 100
  const leaseMs = options.leaseMs ?? 5 * intervalMs
  const retainMs = options.retainMs ?? 600_000
  const clock = options.clock ?? systemClock
  const onError = options.onError ?? (() => {})
  const now = () => clock.now().getTime()
  const sinks = new Set<InvalidationSink>()
  const readyWaiters: Array<() => void> = []
  let watermark: number | null = null // every change at or below it has been applied (or given up)
  const seen = new Set<number>() // applied changes above the watermark
  const gaps = new Map<number, number>() // missing numbers below the highest seen -> first missed at
  let leaseUntil = 0
  let polling = false
  let closed = false
  let lastPrune = 0
  let lastSuccess = 0

  const apply = (payload: string) => {
    let wire: { k: number[]; d: string[]; u: UserId[]; a?: 1 }
    try {
      wire = JSON.parse(payload) as typeof wire
    } catch (cause) {
      // A row not written by a cache cannot be applied; whatever it meant, everything goes.
      onError(cause)
      for (const sink of sinks) sink.reset()
      return
    }
    const message: Invalidation = {
      tokenIds: wire.k,
      digests: wire.d,
      userIds: wire.u,
      ...(wire.a === 1 ? { everything: true } : {}),
    }
    for (const sink of sinks) sink.apply(message)
  }
  const advance = (from: number, at: number): number => {
    let highest = from
    for (const seq of seen) highest = Math.max(highest, seq)
    for (let seq = from + 1; seq < highest; seq++) if (!seen.has(seq) && !gaps.has(seq)) gaps.set(seq, at)
    let mark = from
    while (mark < highest) {
      const next: number = mark + 1
      const missedAt = gaps.get(next)
      if (!seen.has(next) && missedAt !== undefined && at - missedAt < GAP_MS) break
      mark = next
      seen.delete(next)
      gaps.delete(next)
    }
    return mark
  }
  const poll = async () => {
    if (polling || closed) return
    polling = true
    const startedAt = now()
    try {
      if (watermark === null) {
        // The first read only finds where the log ends: what was written before is in the store already.
        const row = await db
          .selectFrom('cache_changes')
          .select((eb) => eb.fn.max('cache_changes.seq').as('last'))
          .executeTakeFirst()
        watermark = Number(row?.last ?? 0)
        // A lookup that started before this read may hold a row older than a change it skipped.
        for (const sink of sinks) sink.reset()
      } else {
        const rows = await db
          .selectFrom('cache_changes')
          .select(['cache_changes.seq', 'cache_changes.message'])
          .where('cache_changes.seq', '>', watermark)
          .orderBy('cache_changes.seq')
          .execute()
        for (const row of rows) {
          const seq = Number(row.seq)
          if (seen.has(seq)) continue
          seen.add(seq)
          apply(String(row.message))
        }
        watermark = advance(watermark, startedAt)
        // After an outage longer than half the retention, other instances may have deleted changes
        // this one never read: start over.
        if (startedAt - lastSuccess > retainMs / 2) for (const sink of sinks) sink.reset()
      }
      lastSuccess = startedAt
      const wasLive = leaseUntil > now()
      leaseUntil = Math.max(leaseUntil, startedAt + leaseMs)
      if (!wasLive) for (const resolve of readyWaiters.splice(0)) resolve()
      if (startedAt - lastPrune > retainMs / 10) {
        lastPrune = startedAt
        await db
          .deleteFrom('cache_changes')
          .where('cache_changes.created_at', '<', dialect.instant(new Date(startedAt - retainMs)))
          .execute()
      }
    } catch (cause) {
      onError(cause)
    } finally {
      polling = false
    }
  }
  const timer = setInterval(() => void poll(), intervalMs)
  timer.unref?.()
  void poll()

  return {
    boundMs: leaseMs,
    subscribe(sink) {
      sinks.add(sink)
      return () => sinks.delete(sink)
    },
    live: (at) => at < leaseUntil,
    async publish(message, { strict }) {
      const wire = {
        k: message.tokenIds,
        d: message.digests,
        u: message.userIds,
        ...(message.everything === true ? { a: 1 } : {}),
      }
      await db
        .insertInto('cache_changes')
        .values({ message: JSON.stringify(wire), created_at: dialect.instant(clock.now()) })
        .execute()
      if (!strict) return
      // Every read that started before this insert committed vouches for at most leaseMs from its start.
      await new Promise((resolve) => setTimeout(resolve, leaseMs))
    },
    ready: () =>
      leaseUntil > now() ? Promise.resolve() : new Promise<void>((resolve) => readyWaiters.push(resolve)),
    close() {
      closed = true
      clearInterval(timer)
      leaseUntil = 0
      sinks.clear()
      return Promise.resolve()
    },
  }
}
