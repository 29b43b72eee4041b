import { describe, expect, it } from 'vitest'
import { swappableStore } from '../../src/fake/swappable-store.js'
import { memoryStore } from '../../src/memory/index.js'
import { describeStoreConformance, draftFactory, userFixture } from '../../src/testing/index.js'

// The fake's reset and restore swap stores under the authority: every contract method must reach the
// store in place.
describeStoreConformance({ name: 'swappable over memory', create: () => swappableStore(memoryStore()) })

describe('swappableStore', () => {
  it('offers the joined lookup and answers it from the store in place after a swap', async () => {
    const store = swappableStore(memoryStore())
    expect(store.findByDigestWithUser).toBeDefined()
    const next = memoryStore()
    store.replace(next)
    await next.putUser(userFixture(2, { username: 'alice' }))
    const draft = draftFactory('swap')
    const token = (await next.insert(draft({ userId: 2 })))._unsafeUnwrap()
    const found = (await store.findByDigestWithUser?.(token.digest))?._unsafeUnwrap()
    expect(found?.token.id).toBe(token.id)
    expect(found?.user?.username).toBe('alice')
    expect((await store.findByDigestWithUser?.('no-such-digest'))?._unsafeUnwrap()).toBeNull()
  })

  it('forwards the successor lookup to the store in place', async () => {
    const store = swappableStore(memoryStore())
    const next = memoryStore()
    store.replace(next)
    await next.putUser(userFixture(2))
    const draft = draftFactory('swap-successor')
    const first = (await next.insert(draft({ userId: 2 })))._unsafeUnwrap()
    const second = (await next.rotate(first.id, draft({ userId: 2, previousId: first.id })))._unsafeUnwrap()
    expect((await store.findSuccessor?.(first.id))?._unsafeUnwrap()?.id).toBe(second.id)
  })
})
