import { errAsync, okAsync } from 'neverthrow'
import { describe, expect, it } from 'vitest'
import {
  cachedStore,
  type Invalidation,
  type InvalidationChannel,
  localInvalidation,
} from '../../src/cache/index.js'
import { storeFailure } from '../../src/domain/error-constructors.js'
import type { StoreFailure } from '../../src/domain/errors.js'
import { memoryStore } from '../../src/memory/index.js'
import { settledResult } from '../../src/store/settled.js'
import type { TokenStore } from '../../src/store/token-store.js'
import { okValue } from '../../src/testing/conformance/results.js'
import { describeStoreConformance, draftFactory, userFixture } from '../../src/testing/index.js'

// The decorator keeps the port's contract: the whole store suite, through a cache. Last-used times are
// written through here (the suite reads them back at once); buffering is tested below.
describeStoreConformance({
  name: 'memory store behind cachedStore',
  create: () => cachedStore(memoryStore(), { lastUsedFlushMs: 0 }),
  stringIds: { create: () => cachedStore(memoryStore({ userIdType: 'string' }), { lastUsedFlushMs: 0 }) },
})

/** A store that counts the lookups reaching it. */
function counting(inner: TokenStore) {
  const calls = { lookups: 0 }
  const store: TokenStore = {
    ...inner,
    findByDigest: (digest) => {
      calls.lookups++
      return inner.findByDigest(digest)
    },
    findByDigestWithUser: (digest) => {
      calls.lookups++
      return inner.findByDigestWithUser?.(digest) ?? okAsync(null)
    },
  }
  return { store, calls }
}

/** A channel whose liveness and publishing a test sets (an in-process stand-in, no database). */
function channelStub(state: {
  live: boolean
  fail: boolean
}): InvalidationChannel & { sent: Invalidation[] } {
  const sent: Invalidation[] = []
  return {
    sent,
    boundMs: 0,
    subscribe: () => () => {},
    live: () => state.live,
    publish: (message) => {
      if (state.fail) return Promise.reject(new Error('channel down'))
      sent.push(message)
      return Promise.resolve()
    },
    ready: () => Promise.resolve(),
    close: () => Promise.resolve(),
  }
}

async function seeded(store: TokenStore) {
  await okValue(store.putUser(userFixture(2)))
  const draft = draftFactory('unit')
  return Promise.all([1, 2, 3, 4, 5].map(() => okValue(store.insert(draft({ userId: 2, expiresAt: null })))))
}

describe('cachedStore', () => {
  it('answers a second lookup from memory, found or unknown', async () => {
    const { store, calls } = counting(memoryStore())
    const cached = cachedStore(store)
    const [token] = await seeded(cached)
    if (token === undefined) throw new Error('seeded')
    await okValue(cached.findByDigestWithUser?.(token.digest) ?? okAsync(null))
    await okValue(cached.findByDigestWithUser?.(token.digest) ?? okAsync(null))
    await okValue(cached.findByDigest('no-such-digest'))
    await okValue(cached.findByDigest('no-such-digest'))
    expect(calls.lookups).toBe(2)
    expect(cached.stats()).toMatchObject({ hits: 1, negativeHits: 1, misses: 2 })
  })

  it('answers a hit settled (the authority reads it at once), a miss as an ordinary ResultAsync', async () => {
    const cached = cachedStore(memoryStore())
    const [token] = await seeded(cached)
    if (token === undefined) throw new Error('seeded')
    const lookup = (digest: string) => cached.findByDigestWithUser?.(digest) ?? okAsync(null)
    const miss = lookup(token.digest)
    expect(settledResult(miss)).toBeUndefined()
    const found = await okValue(miss)
    expect(found?.token.id).toBe(token.id)
    expect(settledResult(lookup(token.digest))?._unsafeUnwrap()).toEqual(found)
    await okValue(lookup('no-such-digest'))
    expect(settledResult(lookup('no-such-digest'))?._unsafeUnwrap()).toBeNull()
  })

  it('keeps at most maxEntries tokens', async () => {
    const cached = cachedStore(memoryStore(), { maxEntries: 2 })
    const tokens = await seeded(cached)
    for (const token of tokens) await okValue(cached.findByDigest(token.digest))
    expect(cached.stats().entries).toBe(2)
    // An evicted token's revocation still reaches the store, and its next lookup reads it there.
    const [evicted] = tokens
    if (evicted === undefined) throw new Error('seeded')
    await okValue(cached.revoke(evicted.id))
    expect((await okValue(cached.findByDigest(evicted.digest)))?.revoked).toBe(true)
  })

  it('serves nothing from memory while the channel is not live', async () => {
    const { store, calls } = counting(memoryStore())
    const state = { live: false, fail: false }
    const cached = cachedStore(store, { invalidation: channelStub(state) })
    const [token] = await seeded(cached)
    if (token === undefined) throw new Error('seeded')
    for (let k = 0; k < 3; k++) await okValue(cached.findByDigest(token.digest))
    expect(calls.lookups).toBe(3)
    state.live = true
    for (let k = 0; k < 3; k++) await okValue(cached.findByDigest(token.digest))
    expect(calls.lookups).toBe(4)
  })

  it('strict: a revocation whose message cannot be sent fails as a store_failure, and is done', async () => {
    const state = { live: true, fail: false }
    const inner = memoryStore()
    const cached = cachedStore(inner, { invalidation: channelStub(state), strict: true })
    const [token] = await seeded(cached)
    if (token === undefined) throw new Error('seeded')
    state.fail = true
    const revoked = await cached.revoke(token.id)
    expect(revoked._unsafeUnwrapErr()).toMatchObject({
      type: 'store_failure',
      operation: 'cacheInvalidation',
    })
    expect((await okValue(inner.findById(token.id)))?.revoked).toBe(true)
    expect((await okValue(cached.findByDigest(token.digest)))?.revoked).toBe(true)
  })

  it('default mode: a message that cannot be sent is reported, and the write answers as usual', async () => {
    const state = { live: true, fail: false }
    const reported: StoreFailure[] = []
    const cached = cachedStore(memoryStore(), {
      invalidation: channelStub(state),
      onError: (error) => reported.push(error),
    })
    const [token] = await seeded(cached)
    if (token === undefined) throw new Error('seeded')
    state.fail = true
    expect(await okValue(cached.revoke(token.id))).toBe('revoked')
    expect(reported.map((e) => e.operation)).toEqual(['cacheInvalidation'])
  })

  it('messages name token ids and digests, never a secret', async () => {
    const channel = channelStub({ live: true, fail: false })
    const cached = cachedStore(memoryStore(), { invalidation: channel })
    const [token] = await seeded(cached)
    if (token === undefined) throw new Error('seeded')
    await okValue(cached.revoke(token.id))
    expect(channel.sent.at(-1)).toEqual({ tokenIds: [token.id], digests: [], userIds: [] })
    expect(channel.sent.slice(0, 1)).toEqual([{ tokenIds: [], digests: [], userIds: [2] }])
  })

  it('a clean close writes every buffered last-used time', async () => {
    const inner = memoryStore()
    const cached = cachedStore(inner, { lastUsedFlushMs: 60_000 })
    const tokens = await seeded(cached)
    const first = new Date('2026-06-15T12:00:00.000Z')
    const later = new Date('2026-06-15T14:00:00.000Z')
    for (const token of tokens) {
      await okValue(cached.touchLastUsed(token.id, first, 60_000, null))
      await okValue(cached.findByDigest(token.digest))
      expect(await okValue(cached.touchLastUsed(token.id, later, 60_000, null))).toBe(true)
    }
    for (const token of tokens) expect((await okValue(inner.findById(token.id)))?.lastUsedAt).toEqual(first)
    await cached.close()
    for (const token of tokens) expect((await okValue(inner.findById(token.id)))?.lastUsedAt).toEqual(later)
  })

  it('a cached token used without an address keeps no empty lastUsedIps (the no-empty-ips contract)', async () => {
    for (const flushMs of [0, 60_000]) {
      const cached = cachedStore(memoryStore(), { lastUsedFlushMs: flushMs })
      const [token] = await seeded(cached)
      if (token === undefined) throw new Error('seeded() stores tokens')
      const first = new Date('2026-06-15T12:00:00.000Z')
      await okValue(cached.touchLastUsed(token.id, first, 60_000, null))
      await okValue(cached.findByDigest(token.digest))
      const later = new Date('2026-06-15T14:00:00.000Z')
      expect(await okValue(cached.touchLastUsed(token.id, later, 60_000, null))).toBe(true)
      const seen = await okValue(cached.findByDigest(token.digest))
      expect(seen?.lastUsedAt).toEqual(later)
      expect(seen !== null && 'lastUsedIps' in seen).toBe(false)
      await cached.close()
    }
  })

  it('buffers every client IP a flush interval sees, as the store would record them one by one', async () => {
    const inner = memoryStore()
    const cached = cachedStore(inner, { lastUsedFlushMs: 60_000 })
    const [token] = await seeded(cached)
    if (token === undefined) throw new Error('seeded() stores tokens')
    const throttle = 10 * 60_000
    const first = new Date('2026-06-15T12:00:00.000Z')
    await okValue(cached.touchLastUsed(token.id, first, throttle, '10.0.0.1'))
    await okValue(cached.findByDigest(token.digest))
    // Two new addresses, each more than a minute after the recorded use, inside one flush interval.
    const second = new Date('2026-06-15T12:02:00.000Z')
    const third = new Date('2026-06-15T12:03:00.000Z')
    expect(await okValue(cached.touchLastUsed(token.id, second, throttle, '10.0.0.2'))).toBe(true)
    expect(await okValue(cached.touchLastUsed(token.id, third, throttle, '10.0.0.3'))).toBe(true)
    // A known address inside the throttle window changes nothing and queues nothing.
    expect(await okValue(cached.touchLastUsed(token.id, third, throttle, '10.0.0.2'))).toBe(false)
    expect((await okValue(inner.findById(token.id)))?.lastUsedIps).toEqual(['10.0.0.1'])
    await cached.close()
    expect((await okValue(inner.findById(token.id)))?.lastUsedIps).toEqual([
      '10.0.0.1',
      '10.0.0.2',
      '10.0.0.3',
    ])
  })

  it('a buffered write that fails is reported and written by the next flush', async () => {
    const inner = memoryStore()
    let failing = true
    const reported: StoreFailure[] = []
    const flaky: TokenStore = {
      ...inner,
      touchLastUsed: (...args) =>
        failing && args[1].getUTCHours() === 14
          ? errAsync(storeFailure('touchLastUsed', new Error('down')))
          : inner.touchLastUsed(...args),
    }
    const cached = cachedStore(flaky, { lastUsedFlushMs: 60_000, onError: (e) => reported.push(e) })
    const [token] = await seeded(cached)
    if (token === undefined) throw new Error('seeded')
    await okValue(cached.touchLastUsed(token.id, new Date('2026-06-15T12:00:00.000Z'), 60_000, null))
    await okValue(cached.findByDigest(token.digest))
    await okValue(cached.touchLastUsed(token.id, new Date('2026-06-15T14:00:00.000Z'), 60_000, null))
    await cached.flush()
    expect(reported).toHaveLength(1)
    failing = false
    await cached.flush()
    expect((await okValue(inner.findById(token.id)))?.lastUsedAt).toEqual(
      new Date('2026-06-15T14:00:00.000Z'),
    )
  })

  it('issue 28: a buffered write that fails three flushes is dropped, and the later ones are written', async () => {
    const inner = memoryStore()
    const reported: StoreFailure[] = []
    let attempts = 0
    // A real store whose write of the 14:00 use always fails (as a row that keeps deadlocking would).
    const stuck: TokenStore = {
      ...inner,
      touchLastUsed: (...args) => {
        if (args[1].getUTCHours() !== 14) return inner.touchLastUsed(...args)
        attempts++
        return errAsync(storeFailure('touchLastUsed', new Error('deadlock')))
      },
    }
    const cached = cachedStore(stuck, { lastUsedFlushMs: 60_000, onError: (e) => reported.push(e) })
    const [token] = await seeded(cached)
    if (token === undefined) throw new Error('seeded')
    await okValue(cached.touchLastUsed(token.id, new Date('2026-06-15T12:00:00.000Z'), 60_000, null))
    await okValue(cached.findByDigest(token.digest))
    await okValue(cached.touchLastUsed(token.id, new Date('2026-06-15T14:00:00.000Z'), 60_000, null))
    for (let flush = 0; flush < 5; flush++) await cached.flush()
    expect(attempts).toBe(3)
    expect(reported).toHaveLength(3)
    await okValue(cached.touchLastUsed(token.id, new Date('2026-06-15T15:00:00.000Z'), 60_000, null))
    await cached.flush()
    expect((await okValue(inner.findById(token.id)))?.lastUsedAt).toEqual(
      new Date('2026-06-15T15:00:00.000Z'),
    )
    await cached.close()
  })

  it("offers the store's lookups and receipt methods", () => {
    const inner = memoryStore()
    const cached = cachedStore(inner)
    const optional = [
      'findByDigestWithUser',
      'findSuccessor',
      'rotateWithReceipt',
      'consumeRotationReceipt',
    ] as const
    for (const name of optional) expect(typeof cached[name], name).toBe(typeof inner[name])
  })

  it('several caches on one local channel share invalidations', async () => {
    const inner = memoryStore()
    const invalidation = localInvalidation()
    const [a, b] = [cachedStore(inner, { invalidation }), cachedStore(inner, { invalidation })]
    if (a === undefined || b === undefined) throw new Error('two caches')
    const [token] = await seeded(a)
    if (token === undefined) throw new Error('seeded')
    expect((await okValue(b.findByDigest(token.digest)))?.revoked).toBe(false)
    await okValue(a.revoke(token.id))
    expect((await okValue(b.findByDigest(token.digest)))?.revoked).toBe(true)
  })

  // Issue 19, item 4: what the store itself answers corrects a cache whose invalidation has not
  // arrived (each cache on a channel of its own: B never hears A).
  it('a rotation the store refuses, or a row read by id, drops the entry the store shows stale', async () => {
    const inner = memoryStore()
    const a = cachedStore(inner, { invalidation: localInvalidation() })
    const b = cachedStore(inner, { invalidation: localInvalidation() })
    const [rotated, read] = await seeded(a)
    if (rotated === undefined || read === undefined) throw new Error('seeded')
    for (const token of [rotated, read]) {
      for (let i = 0; i < 2; i++) expect((await okValue(b.findByDigest(token.digest)))?.revoked).toBe(false)
    }
    const draft = draftFactory('unit-stale')
    await okValue(a.rotate(rotated.id, draft({ userId: 2, expiresAt: null, previousId: rotated.id })))
    await okValue(a.revoke(read.id))
    // B still answers both from memory, as it may within the channel's bound...
    expect((await okValue(b.findByDigest(rotated.digest)))?.revoked).toBe(false)
    expect((await okValue(b.findByDigest(read.digest)))?.revoked).toBe(false)
    // ...until the store tells it otherwise.
    const refused = await b.rotate(rotated.id, draft({ userId: 2, expiresAt: null, previousId: rotated.id }))
    expect(refused._unsafeUnwrapErr().type).toBe('already_revoked')
    expect((await okValue(b.findByDigest(rotated.digest)))?.revoked).toBe(true)
    expect((await okValue(b.findById(read.id)))?.revoked).toBe(true)
    expect((await okValue(b.findByDigest(read.digest)))?.revoked).toBe(true)
  })
})
