import { ok } from 'neverthrow'
import { describe, expect, it } from 'vitest'
import { memoryStore } from '../../src/memory/index.js'
import { RecentMap } from '../../src/memory/recent-map.js'
import { settledResult } from '../../src/store/index.js'
import { draftFactory, userFixture } from '../../src/testing/index.js'

const NOW = new Date('2026-06-15T12:00:00.000Z')

/** A store holding one token of user 2 (and the user), and that token. */
async function storeWithToken() {
  const store = memoryStore({ users: [userFixture(2)] })
  const draft = draftFactory('settled')
  const token = (await store.insert(draft({ userId: 2 })))._unsafeUnwrap()
  return { store, draft, token }
}

/** The memory store's joined lookup, read through its settled result (it must have one). */
function settledAnswer(store: ReturnType<typeof memoryStore>, digest: string) {
  const found = store.findByDigestWithUser?.(digest)
  const settled = found === undefined ? undefined : settledResult(found)
  if (settled === undefined) throw new Error('the memory store answered without a settled result')
  return settled._unsafeUnwrap()
}

// The memory store answers authentication's lookup settled, and remembers the answer per stored row:
// these tests check that a remembered answer is handed out only while nothing it shows has changed.
describe('memory store: settled, remembered answers', () => {
  it('answers the joined lookup settled, and the same frozen answer while nothing changed', async () => {
    const { store, token } = await storeWithToken()
    const first = settledAnswer(store, token.digest)
    expect(first).toEqual({ token, user: userFixture(2) })
    expect(Object.isFrozen(first) && Object.isFrozen(first?.token)).toBe(true)
    expect(settledAnswer(store, token.digest)).toBe(first)
    expect(await store.findByDigestWithUser?.(token.digest)).toEqual(ok(first))
    expect(settledAnswer(store, `${token.digest}x`)).toBeNull()
  })

  it('a revocation, a recorded use, a rotation or a changed owner is seen by the next lookup', async () => {
    const { store, draft, token } = await storeWithToken()
    const other = (await store.insert(draft({ userId: 2 })))._unsafeUnwrap()
    const third = (await store.insert(draft({ userId: 2 })))._unsafeUnwrap()
    for (const t of [token, other, third]) settledAnswer(store, t.digest)

    await store.revoke(token.id)
    expect(settledAnswer(store, token.digest)?.token.revoked).toBe(true)

    await store.touchLastUsed(other.id, NOW, 0, '203.0.113.7')
    const used = settledAnswer(store, other.digest)?.token
    expect([used?.lastUsedAt, used?.lastUsedIps]).toEqual([NOW, ['203.0.113.7']])

    const successor = (
      await store.rotate(third.id, draft({ userId: 2, previousId: third.id }))
    )._unsafeUnwrap()
    expect(settledAnswer(store, third.digest)?.token.revoked).toBe(true)
    expect(settledAnswer(store, successor.digest)?.token).toEqual(successor)

    const blocked = { ...userFixture(2), blocked: true }
    await store.putUser(blocked)
    expect(settledAnswer(store, other.digest)?.user).toEqual(blocked)
  })
})

describe('RecentMap', () => {
  it('keeps at most its capacity, forgetting the oldest entry first', () => {
    const memo = new RecentMap<string, number>(2)
    memo.set('a', 1)
    memo.set('b', 2)
    expect(memo.get('a')).toBe(1) // a hit does not reorder: 'a' stays the oldest
    memo.set('c', 3)
    expect([memo.get('a'), memo.get('b'), memo.get('c')]).toEqual([undefined, 2, 3])
  })
})
