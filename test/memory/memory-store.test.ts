import { describe, expect, it } from 'vitest'
import type { CalendarDate } from '../../src/domain/calendar.js'
import type { Token } from '../../src/domain/token.js'
import { memoryStore } from '../../src/memory/index.js'
import type { ListQuery } from '../../src/query/filter.js'
import { describeStoreConformance, draftFactory, userFixture } from '../../src/testing/index.js'

describeStoreConformance({
  name: 'memory',
  create: () => memoryStore(),
  stringIds: { create: () => memoryStore({ userIdType: 'string' }) },
})

const NOW = new Date('2026-06-15T12:00:00.000Z')
const query = (filter: ListQuery['filter'], perPage = 100): ListQuery => ({
  filter,
  sort: 'id_asc',
  page: { page: 1, perPage },
  now: NOW,
})

describe('memoryStore specifics', () => {
  it('answers a user-scoped list correctly among 10,000 tokens of other users', async () => {
    // The store reads only the user's own index entry for such a list (memory-store.ts, `list`), so
    // the cost is O(k); a test states the answer, not the timing.
    const store = memoryStore()
    const draft = draftFactory()
    for (let i = 0; i < 10_000; i++) {
      await store.insert(draft({ userId: 100 + (i % 500), name: `noise ${i}`, revoked: i % 7 === 0 }))
    }
    const mine: Token[] = []
    for (let i = 0; i < 5; i++) {
      mine.push(
        (await store.insert(draft({ userId: 42, name: `mine ${i}`, revoked: i === 3 })))._unsafeUnwrap(),
      )
    }
    const all = (await store.list(query({ userId: 42 })))._unsafeUnwrap()
    expect(all).toEqual({ items: mine, total: 5 })
    const active = (await store.list(query({ userId: 42, state: 'active' }, 2)))._unsafeUnwrap()
    expect(active).toEqual({ items: [mine[0], mine[1]], total: 4 })
    const nobody = (await store.list(query({ userId: 43 })))._unsafeUnwrap()
    expect(nobody).toEqual({ items: [], total: 0 })
  })

  it('hands out frozen tokens and keeps no reference to the objects of the caller', async () => {
    const store = memoryStore()
    const createdAt = new Date('2026-01-01T00:00:00.000Z')
    const scopes: Token['scopes'][number][] = ['api']
    const input = draftFactory()({ createdAt, scopes })
    const token = (await store.insert(input))._unsafeUnwrap()
    expect(Object.isFrozen(token)).toBe(true)
    expect(Object.isFrozen(token.scopes)).toBe(true)
    // The caller changes what it passed in: the store is unaffected.
    createdAt.setTime(0)
    scopes.push('read_api')
    const again = (await store.findById(token.id))._unsafeUnwrap()
    expect(again?.createdAt.toISOString()).toBe('2026-01-01T00:00:00.000Z')
    expect(again?.scopes).toEqual(['api'])
    // A caller changing a Date it was handed changes only its own copy.
    again?.createdAt.setTime(0)
    const third = (await store.findByDigest(input.digest))._unsafeUnwrap()
    expect(third?.createdAt.toISOString()).toBe('2026-01-01T00:00:00.000Z')
  })

  it('starts with the users it is given', async () => {
    const store = memoryStore({ users: [userFixture(1, { username: 'root', admin: true }), userFixture(2)] })
    expect((await store.findUser('ROOT'))._unsafeUnwrap()).toEqual(
      userFixture(1, { username: 'root', admin: true }),
    )
    expect((await store.findUser(2))._unsafeUnwrap()).toEqual(userFixture(2))
  })

  it('refuses a username given to two ids, at construction and through putUser', async () => {
    expect(() =>
      memoryStore({ users: [userFixture(1, { username: 'root' }), userFixture(2, { username: 'Root' })] }),
    ).toThrow(/username "Root" already belongs to user 1/)
    const store = memoryStore({ users: [userFixture(1, { username: 'root' })] })
    const error = (await store.putUser(userFixture(2, { username: 'ROOT' })))._unsafeUnwrapErr()
    expect(error).toMatchObject({ type: 'store_failure', operation: 'putUser' })
    expect(String(error.cause)).toMatch(/already belongs to user 1/)
  })

  it('names the conflict in the cause of a store_failure', async () => {
    const store = memoryStore()
    const draft = draftFactory()
    const first = (await store.insert(draft()))._unsafeUnwrap()
    const byDigest = (await store.insert(draft({ digest: first.digest })))._unsafeUnwrapErr()
    expect(byDigest).toMatchObject({ type: 'store_failure', operation: 'insert' })
    expect(String(byDigest.cause)).toMatch(`digest already stored (token ${first.id})`)
    const byId = (await store.importToken({ ...first, digest: 'other' }))._unsafeUnwrapErr()
    expect(String(byId.cause)).toMatch(`token id ${first.id} is already stored`)
    const successor = (
      await store.rotate(first.id, draft({ previousId: first.id, familyId: first.id }))
    )._unsafeUnwrap()
    const twin = (await store.insert(draft({ previousId: first.id })))._unsafeUnwrapErr()
    expect(String(twin.cause)).toMatch(`token ${first.id} already has a successor (token ${successor.id})`)
  })

  it('counts ids from 1', async () => {
    const store = memoryStore()
    const draft = draftFactory()
    const ids = []
    for (let i = 0; i < 3; i++) ids.push((await store.insert(draft()))._unsafeUnwrap().id)
    expect(ids).toEqual([1, 2, 3])
    const imported = { ...draft(), id: 10, familyId: 10, expiresAt: '2030-01-01' as CalendarDate }
    await store.importToken(imported)
    expect((await store.insert(draft()))._unsafeUnwrap().id).toBe(11)
  })
})
