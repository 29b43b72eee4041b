import type { UserId } from '../domain/user-id.js'

/**
 * What a write changed, as the cache needs to know it: tokens by id (revoked, rotated), digests that
 * now have a token (a negative entry to drop), and users whose record changed (blocked, renamed).
 * Digests are HMACs of secrets under the pepper, never secrets.
 *
 * @example
 * ```ts
 * import type { Invalidation } from 'patkit/cache'
 * const revoked: Invalidation = { tokenIds: [7], digests: [], userIds: [] }
 * ```
 */
export interface Invalidation {
  readonly tokenIds: readonly number[]
  readonly digests: readonly string[]
  readonly userIds: readonly UserId[]
  /** Everything changed (the data was replaced wholesale): a cache drops all it holds. */
  readonly everything?: boolean
}

/**
 * The receiving side of a channel: a cache drops what a message names, or everything when the channel
 * may have missed messages (after a reconnection, or when it was not live for a while).
 *
 * @example
 * ```ts
 * import type { InvalidationSink } from 'patkit/cache'
 * const dropped: number[] = []
 * const sink: InvalidationSink = { apply: (m) => dropped.push(...m.tokenIds), reset: () => {} }
 * ```
 */
export interface InvalidationSink {
  apply(message: Invalidation): void
  reset(): void
}

/**
 * How caches on several instances learn of each other's writes. patkit ships an in-process channel
 * ({@link localInvalidation}), PostgreSQL LISTEN/NOTIFY (`postgresInvalidation` from `patkit/sql`) and a
 * polling channel over a change log table for every SQL dialect (`pollingInvalidation`).
 *
 * The contract a cache relies on:
 * - `live(nowMs)` is true only while the channel can vouch that every message published before
 *   `nowMs - boundMs` has been handed to its sinks. A cache serves nothing from memory while it is false,
 *   and a channel calls `reset` on its sinks when it becomes live again after a gap.
 * - `publish` resolves once the message is on its way to every instance; with `strict`, once every
 *   live instance has applied it, or once `boundMs` has passed, after which an instance that did not
 *   confirm is no longer live. It rejects when the message could not be sent.
 *
 * @example
 * ```ts
 * import { localInvalidation, type InvalidationChannel } from 'patkit/cache'
 * const channel: InvalidationChannel = localInvalidation()
 * ```
 */
export interface InvalidationChannel {
  /** How long after a write an instance may still serve what it cached before the write, at most. */
  readonly boundMs: number
  /** Delivers messages to `sink` from now on; returns the function that stops it. */
  subscribe(sink: InvalidationSink): () => void
  live(nowMs: number): boolean
  publish(message: Invalidation, options: { readonly strict: boolean }): Promise<void>
  /** Resolves once the channel is live (or at once for channels that always are). */
  ready(): Promise<void>
  close(): Promise<void>
}

/**
 * The in-process channel: every cache subscribed to it sees every message at once. For one instance,
 * or several caches over one store in one process (tests). Always live; strict costs nothing.
 *
 * @example
 * ```ts
 * import { cachedStore, localInvalidation } from 'patkit/cache'
 * import { memoryStore } from 'patkit/memory'
 *
 * const channel = localInvalidation()
 * const inner = memoryStore()
 * const a = cachedStore(inner, { invalidation: channel })
 * const b = cachedStore(inner, { invalidation: channel })
 * ```
 */
export function localInvalidation(): InvalidationChannel {
  const sinks = new Set<InvalidationSink>()
  return {
    boundMs: 0,
    subscribe(sink) {
      sinks.add(sink)
      return () => sinks.delete(sink)
    },
    live: () => true,
    publish(message) {
      for (const sink of sinks) sink.apply(message)
      return Promise.resolve()
    },
    ready: () => Promise.resolve(),
    close() {
      sinks.clear()
      return Promise.resolve()
    },
  }
}

/** Whether a message names nothing. */
export function isEmptyInvalidation(message: Invalidation): boolean {
  return (
    message.everything !== true &&
    message.tokenIds.length === 0 &&
    message.digests.length === 0 &&
    message.userIds.length === 0
  )
}
