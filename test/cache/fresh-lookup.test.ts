import { describe, expect, it } from 'vitest'
import { cachedStore } from '../../src/cache/index.js'
import { memoryStore } from '../../src/memory/index.js'
import { okValue } from '../../src/testing/conformance/results.js'
import { draftFactory, userFixture } from '../../src/testing/index.js'
import { countingStore } from '../support/counting-store.js'

// findFreshByDigest is the lookup a decision makes (a rotation, a revocation, a creation): the cache
// passes it to the store it wraps, every time, keeps nothing of it, and corrects what it holds by it.

async function cachedOver() {
  const memory = memoryStore()
  await okValue(memory.putUser(userFixture(2)))
  const { store, calls } = countingStore(memory)
  const cache = cachedStore(store, { lastUsedFlushMs: 0 })
  const token = await okValue(cache.insert(draftFactory('fresh')({ userId: 2, expiresAt: null })))
  const { findFreshByDigest: fresh, findByDigestWithUser: joined } = cache
  return { memory, cache, calls, token, fresh, joined }
}

describe('cachedStore: findFreshByDigest', () => {
  it('reaches the store on every call, and answers as the joined lookup', async () => {
    const { calls, token, fresh, joined } = await cachedOver()
    // Authentication's lookups are answered from memory after the first.
    for (let i = 0; i < 3; i++) await okValue(joined(token.digest))
    calls.reset()
    for (let i = 0; i < 3; i++)
      expect(await okValue(fresh(token.digest))).toEqual(await okValue(joined(token.digest)))
    expect(calls.count('findFreshByDigest')).toBe(3)
    expect(calls.count('findByDigestWithUser')).toBe(0)
  })

  it('a revoked row read fresh drops the entry that still says active', async () => {
    const { memory, cache, calls, token, fresh, joined } = await cachedOver()
    for (let i = 0; i < 2; i++) await okValue(joined(token.digest))
    // Revoked behind the cache's back (another instance, whose message has not arrived).
    await okValue(memory.revoke(token.id))
    expect((await okValue(joined(token.digest)))?.token.revoked).toBe(false)
    expect((await okValue(fresh(token.digest)))?.token.revoked).toBe(true)
    calls.reset()
    expect((await okValue(cache.findByDigest(token.digest)))?.revoked).toBe(true)
    expect(calls.count('findByDigest')).toBe(1)
  })
})
