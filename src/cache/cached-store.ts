import { err, errAsync, ok, okAsync, type Result, ResultAsync } from 'neverthrow'
import { type Clock, epochMs, systemClock } from '../domain/clock.js'
import { storeFailure } from '../domain/error-constructors.js'
import type { StoreFailure } from '../domain/errors.js'
import { usedToken } from '../domain/last-used.js'
import type { Token } from '../domain/token.js'
import { settledResultAsync } from '../store/settled.js'
import type { TokenStore, TokenWithUser } from '../store/token-store.js'
import type { User } from '../store/user.js'
import { BoundedMap } from './bounded-map.js'
import {
  type Invalidation,
  type InvalidationChannel,
  isEmptyInvalidation,
  localInvalidation,
} from './invalidation.js'
import { LastUsedBuffer, type TouchArguments } from './last-used-buffer.js'

/**
 * Options of {@link cachedStore}. Every field has a default.
 *
 * @example
 * ```ts
 * import type { CacheOptions } from 'patkit/cache'
 * const options: CacheOptions = { maxEntries: 50_000, strict: true }
 * ```
 */
export interface CacheOptions {
  /** How instances tell each other of writes; default: an in-process channel of this cache alone. */
  readonly invalidation?: InvalidationChannel
  /**
   * A write that can stop a token (revoke, rotate, reuse detection) returns only once every live
   * instance has dropped it, or once the channel's bound has passed (after which an instance that did not
   * confirm serves nothing from memory). A message that cannot be sent fails the write as a
   * `store_failure` (operation `cacheInvalidation`); the write itself stays done. Default false: the write
   * returns once the message is sent.
   */
  readonly strict?: boolean
  /** Tokens kept; one not used recently is evicted first (CLOCK, see BoundedMap). Default 10,000. */
  readonly maxEntries?: number
  /** Unknown digests remembered (answered "no such token" without a lookup). Default 10,000; 0 turns it off. */
  readonly maxNegativeEntries?: number
  /**
   * How long an entry is served before it is read again, in ms: the bound on staleness when an
   * invalidation is lost (a writer that died between its commit and its message). Default 60,000.
   */
  readonly ttlMs?: number
  /** The same for unknown digests. Default 5,000. */
  readonly negativeTtlMs?: number
  /**
   * `touchLastUsed` is buffered and written at most this often (ms); a token's first use is written at
   * once. 0 writes every touch through. Default 1,000. A buffered write that fails is tried again by the
   * next flushes, and dropped after three (each failure goes to `onError`).
   */
  readonly lastUsedFlushMs?: number
  /** Measures entry ages and the channel's lease; default the system clock. */
  readonly clock?: Clock
  /** Failures nothing waits for (a buffered last-used write, a default-mode message); the library never logs. */
  readonly onError?: (error: StoreFailure) => void
}

/**
 * Counters of a cache since it was created.
 *
 * @example
 * ```ts
 * import type { CacheStats } from 'patkit/cache'
 * const stats: CacheStats = { hits: 9, misses: 1, negativeHits: 0, entries: 1, invalidations: 0, resets: 0 }
 * ```
 */
export interface CacheStats {
  readonly hits: number
  readonly misses: number
  readonly negativeHits: number
  readonly entries: number
  readonly invalidations: number
  readonly resets: number
}

/**
 * A {@link TokenStore} with a verification cache in front, and its lifecycle.
 *
 * @example
 * ```ts
 * import { cachedStore } from 'patkit/cache'
 * const cached = cachedStore(store)
 * await cached.close() // writes buffered last-used times, stops listening
 * ```
 */
export interface CachedStore extends TokenStore {
  /** Resolves once the invalidation channel is live, i.e. once the cache starts serving from memory. */
  ready(): Promise<void>
  /** Writes the buffered `touchLastUsed` calls. */
  flush(): Promise<void>
  /** Flushes, stops the flush timer and unsubscribes; the inner store and the channel stay open. */
  close(): Promise<void>
  stats(): CacheStats
}

/** The counters when a lookup started. */
interface Since {
  readonly generation: number
  readonly created: number
}

interface Entry {
  token: Token
  /** `undefined` until a lookup with the owner filled it. */
  user: User | null | undefined
  readonly loadedAt: number
  /** The settled answer last handed out for this entry, valid while its token is `token`. */
  answer?: { readonly token: Token; readonly found: ResultAsync<TokenWithUser, never> }
}

const DEFAULTS = {
  maxEntries: 10_000,
  maxNegativeEntries: 10_000,
  ttlMs: 60_000,
  negativeTtlMs: 5_000,
  lastUsedFlushMs: 1_000,
}

/**
 * A verification cache in front of any {@link TokenStore}: the lookups `authenticate` makes
 * (`findByDigest`, `findByDigestWithUser`) are answered from memory, positive and negative, keyed by
 * digest and bounded (one not used recently evicted first), and `touchLastUsed` is buffered, so a
 * verification does no I/O on the hot path (users found by `findUser` are kept too, for authorities
 * that look the owner up separately). A hit is answered settled (`settledResultAsync`). Every write through it drops what it changed here and tells the other
 * instances through `options.invalidation`; a lookup that raced an invalidation is not kept. Lists,
 * reads by id, `findFreshByDigest` (offered when the wrapped store has it) and every write go to the
 * store: the authority decides on them (a rotation request reads its token with `findFreshByDigest`),
 * never on a cached row. A row read by id or fresh (its digest's "unknown", and an entry it shows
 * stale), a rotation the store refuses, and an insert the store refuses (its digest's "unknown") drop
 * what this cache held. See docs/storage.md, "Many instances on one database".
 *
 * Writes that bypass every cache (SQL by hand, a store not wrapped) are seen after `ttlMs`.
 *
 * @example
 * ```ts
 * import { createAuthority } from 'patkit'
 * import { cachedStore } from 'patkit/cache'
 * import { memoryStore } from 'patkit/memory'
 *
 * const cached = cachedStore(memoryStore(), { maxEntries: 50_000 })
 * const authority = createAuthority({ store: cached, pepper })
 * // at shutdown:
 * await cached.close()
 * ```
 */
export function cachedStore(store: TokenStore, options: CacheOptions = {}): CachedStore {
  const channel = options.invalidation ?? localInvalidation()
  const strict = options.strict === true
  const clock = options.clock ?? systemClock
  const ttlMs = options.ttlMs ?? DEFAULTS.ttlMs
  const negativeTtlMs = options.negativeTtlMs ?? DEFAULTS.negativeTtlMs
  const flushMs = options.lastUsedFlushMs ?? DEFAULTS.lastUsedFlushMs
  const onError = options.onError ?? (() => {})
  // Token id -> digest of its entry, for invalidations by id; as bounded as the entries it indexes.
  const digestOf = new Map<number, string>()
  const entries = new BoundedMap<string, Entry>(options.maxEntries ?? DEFAULTS.maxEntries, (_, entry) =>
    digestOf.delete(entry.token.id),
  )
  const unknown = new BoundedMap<string, number>(options.maxNegativeEntries ?? DEFAULTS.maxNegativeEntries)
  // Users by `id:<n>` or `name:<lower-case username>`: the authority's fallback lookup (a store without
  // the joined lookup, or one wrapped by something that hides it) asks for the owner on every request.
  const users = new BoundedMap<string, { readonly user: User; readonly loadedAt: number }>(
    options.maxEntries ?? DEFAULTS.maxEntries,
  )
  const buffer = new LastUsedBuffer(store, onError)
  // Bumped by every invalidation: a lookup that started before one is answered but not kept, because
  // it may have read the row before the write the invalidation announces.
  let generation = 0
  // Bumped by every message, a new token's digest included: it spoils only a lookup that found nothing.
  let created = 0
  const counts = { hits: 0, misses: 0, negativeHits: 0, invalidations: 0, resets: 0 }

  const drop = (digest: string) => {
    const entry = entries.get(digest)
    if (entry !== undefined) digestOf.delete(entry.token.id)
    entries.delete(digest)
    unknown.delete(digest)
  }
  const reset = () => {
    generation++
    created++
    counts.resets++
    entries.clear()
    unknown.clear()
    digestOf.clear()
    users.clear()
  }
  const apply = (message: Invalidation) => {
    if (message.everything === true) {
      counts.invalidations++
      reset()
      return
    }
    if (message.tokenIds.length > 0 || message.userIds.length > 0) generation++
    created++
    counts.invalidations++
    for (const id of message.tokenIds) {
      const digest = digestOf.get(id)
      if (digest !== undefined) drop(digest)
    }
    // A digest in a message has a token now: only a negative entry for it is wrong.
    for (const digest of message.digests) unknown.delete(digest)
    if (message.userIds.length > 0) {
      const changed = new Set(message.userIds)
      for (const [digest, entry] of [...entries.entries()]) if (changed.has(entry.token.userId)) drop(digest)
      for (const [ref, entry] of [...users.entries()]) if (changed.has(entry.user.id)) users.delete(ref)
    }
  }
  const unsubscribe = channel.subscribe({ apply, reset })
  // What the store itself just said about a token or a digest that this cache may hold otherwise: the
  // entry goes, here only (the writer that changed the row tells everyone), and so does any lookup
  // in flight, which may have read the row before.
  const forget = (tokenIds: readonly number[], digests: readonly string[] = []) => {
    generation++
    created++
    for (const id of tokenIds) {
      const digest = digestOf.get(id)
      if (digest !== undefined) drop(digest)
    }
    for (const digest of digests) unknown.delete(digest)
  }
  // A row read from the store corrects what this cache holds before the writer's message arrives: its
  // digest has a token (an "unknown" remembered before another instance stored it goes, and so does a
  // lookup in flight that may have missed the row), and a cached entry still active is stale once the
  // row is revoked.
  const refresh = (token: Token | null) => {
    if (token === null) return
    created++
    unknown.delete(token.digest)
    if (!token.revoked) return
    const digest = digestOf.get(token.id)
    if (digest !== undefined && entries.get(digest)?.token.revoked === false) forget([token.id])
  }

  const keep = (digest: string, found: TokenWithUser | Token | null, since: Since, withUser: boolean) => {
    const now = epochMs(clock)
    if (generation !== since.generation || !channel.live(now)) return
    if (found === null) {
      if (created === since.created) unknown.set(digest, now)
      return
    }
    const token = 'token' in found ? found.token : found
    const user = 'token' in found ? found.user : undefined
    entries.set(digest, { token, user: withUser ? user : undefined, loadedAt: now })
    digestOf.set(token.id, digest)
  }
  // The entry for a digest when it may be served now: the channel is live and the entry is young enough.
  const cached = (digest: string): Entry | null | undefined => {
    const now = epochMs(clock)
    if (!channel.live(now)) return undefined
    const entry = entries.get(digest)
    if (entry !== undefined) return now - entry.loadedAt < ttlMs ? entry : undefined
    const missSince = unknown.get(digest)
    return missSince !== undefined && now - missSince < negativeTtlMs ? null : undefined
  }

  const findUser = (ref: number | string): ResultAsync<User | null, StoreFailure> => {
    const key = typeof ref === 'number' ? `id:${ref}` : `name:${ref.toLowerCase()}`
    const now = epochMs(clock)
    const hit = channel.live(now) ? users.get(key) : undefined
    if (hit !== undefined && now - hit.loadedAt < ttlMs) return okAsync(hit.user)
    const since = generation
    return store.findUser(ref).map((user) => {
      const at = epochMs(clock)
      if (user !== null && generation === since && channel.live(at)) users.set(key, { user, loadedAt: at })
      return user
    })
  }

  const findByDigest = (digest: string): ResultAsync<Token | null, StoreFailure> => {
    const hit = cached(digest)
    if (hit === null) {
      counts.negativeHits++
      return okAsync(null)
    }
    if (hit !== undefined) {
      counts.hits++
      return okAsync(hit.token)
    }
    counts.misses++
    const since: Since = { generation, created }
    return store.findByDigest(digest).map((token) => {
      keep(digest, token, since, false)
      return token
    })
  }
  // A hit, positive or negative, is answered settled (the authority decides without waiting).
  const findByDigestWithUser = (digest: string): ResultAsync<TokenWithUser | null, StoreFailure> => {
    const hit = cached(digest)
    if (hit === null) {
      counts.negativeHits++
      return NOT_FOUND
    }
    if (hit !== undefined && hit.user !== undefined) {
      counts.hits++
      // One settled answer per entry, made again only when a recorded use replaced its token.
      if (hit.answer?.token !== hit.token) {
        hit.answer = { token: hit.token, found: settledResultAsync(ok({ token: hit.token, user: hit.user })) }
      }
      return hit.answer.found
    }
    counts.misses++
    const since: Since = { generation, created }
    return store.findByDigestWithUser(digest).map((found) => {
      keep(digest, found, since, true)
      return found
    })
  }

  // Drops locally at once (this instance never serves what it changed), then tells the others.
  // Strict applies to writes that stop a token; a new token's digest (a negative entry) never waits.
  const announce = (message: Invalidation, stops = true): ResultAsync<void, StoreFailure> => {
    if (isEmptyInvalidation(message)) return okAsync(undefined)
    apply(message)
    const waits = strict && stops
    return new ResultAsync(
      channel.publish(message, { strict: waits }).then(
        (): Result<void, StoreFailure> => ok(undefined),
        (cause: unknown): Result<void, StoreFailure> => {
          const failure = storeFailure('cacheInvalidation', cause)
          if (waits) return err(failure)
          onError(failure)
          return ok(undefined)
        },
      ),
    )
  }
  const message = (tokenIds: readonly number[], digests: readonly string[] = []): Invalidation => ({
    tokenIds,
    digests,
    userIds: [],
  })

  // The store refused to rotate a token that is revoked or gone: whatever this cache holds of it is stale.
  const stale = <E extends { readonly type: string }>(oldId: number, failure: E): E => {
    if (failure.type === 'already_revoked' || failure.type === 'not_found') forget([oldId])
    return failure
  }

  const touchLastUsed = (...args: TouchArguments): ResultAsync<boolean, StoreFailure> => {
    const [id, at, throttleMs, ip] = args
    const digest = digestOf.get(id)
    const entry = digest === undefined ? undefined : entries.get(digest)
    // Without a cached view the store decides at once. A first use is written at once too: "never
    // used" means something to others (a rotation receipt is redeemable only while its successor was
    // never used), so it must not wait in a buffer.
    if (flushMs <= 0 || entry === undefined || entry.token.lastUsedAt === null) {
      return store.touchLastUsed(...args).map((written) => {
        const used = entry === undefined ? null : usedToken(entry.token, at, throttleMs, ip)
        if (written && entry !== undefined && used !== null) entry.token = used
        return written
      })
    }
    // GitLab's LastUsedService rule on the cached view (which includes what is still buffered): only a
    // use that changes `last_used_at` or `last_used_ips` is queued.
    const used = usedToken(entry.token, at, throttleMs, ip)
    if (used === null) return okAsync(false)
    entry.token = used
    buffer.add(args)
    return okAsync(true)
  }

  const timer = flushMs > 0 ? setInterval(() => void buffer.flush(), flushMs) : undefined
  timer?.unref?.()

  const self: CachedStore = {
    userIdType: store.userIdType,
    findByDigest,
    findByDigestWithUser,
    // A decision's lookup: never answered from memory nor kept, and, as a read by id, what it finds corrects this cache.
    findFreshByDigest: (digest) =>
      store.findFreshByDigest(digest).map((found) => {
        refresh(found === null ? null : found.token)
        return found
      }),
    // Never answered from memory: decisions read tokens by id (docs/storage.md). What it finds corrects this cache.
    findById: (id) =>
      store.findById(id).map((token) => {
        refresh(token)
        return token
      }),
    // A read that passes through; a write would need its invalidation here.
    findSuccessor: (id) => store.findSuccessor(id),
    list: (query) => store.list(query),
    findUser,
    // Not kept: the authority asks it for sessions and string-id owners, never on a cached hot path.
    findUserById: (id) => store.findUserById(id),
    // A failed insert may have met the row another instance just stored (a unique key): the digest's
    // negative entry, remembered before that row existed, must not answer the caller's re-check.
    insert: (draft) =>
      store
        .insert(draft)
        .orElse((failure) => {
          forget([], [draft.digest])
          return errAsync(failure)
        })
        .andThen((token) => announce(message([], [token.digest]), false).map(() => token)),
    importToken: (token) =>
      store
        .importToken(token)
        .orElse((failure) => {
          forget([token.id], [token.digest])
          return errAsync(failure)
        })
        .andThen((stored) => announce(message([stored.id], [stored.digest]), false).map(() => stored)),
    revoke: (id) =>
      store
        .revoke(id)
        .andThen((outcome) =>
          outcome === 'missing' ? okAsync(outcome) : announce(message([id])).map(() => outcome),
        ),
    rotate: (oldId, successor) =>
      store
        .rotate(oldId, successor)
        .mapErr((failure) => stale(oldId, failure))
        .andThen((token) => announce(message([oldId], [token.digest])).map(() => token)),
    rotateWithReceipt: (oldId, successor, receipt) =>
      store
        .rotateWithReceipt(oldId, successor, receipt)
        .mapErr((failure) => stale(oldId, failure))
        .andThen((token) => announce(message([oldId], [token.digest])).map(() => token)),
    consumeRotationReceipt: (tokenId, keyDigest, now) =>
      store.consumeRotationReceipt(tokenId, keyDigest, now),
    revokeDescendants: (tokenId, now) =>
      store
        .revokeDescendants(tokenId, now)
        .andThen((revoked) => announce(message(revoked.map((t) => t.id))).map(() => revoked)),
    touchLastUsed,
    putUser: (user) =>
      store
        .putUser(user)
        .andThen((stored) => announce({ tokenIds: [], digests: [], userIds: [stored.id] }).map(() => stored)),
    // The data replaced wholesale: uses still buffered go first (they belong to the old data), and once
    // the new data is in, this cache and every other instance's drop all they hold.
    replaceAll: (contents) =>
      new ResultAsync(buffer.flush().then(() => store.replaceAll(contents))).andThen(() =>
        announce({ tokenIds: [], digests: [], userIds: [], everything: true }),
      ),
    ready: () => channel.ready(),
    flush: () => buffer.flush(),
    async close() {
      if (timer !== undefined) clearInterval(timer)
      await buffer.flush()
      unsubscribe()
    },
    stats: () => ({ ...counts, entries: entries.size }),
  }
  // Projects, groups and the users the API creates are never cached: only authentication is, and a
  // token's user is read with its token.
  if (store.resources !== undefined) Object.assign(self, { resources: store.resources })
  return self
}

const NOT_FOUND = settledResultAsync(ok(null))
