import { errAsync } from 'neverthrow'
import { describe, expect, it } from 'vitest'
import { cachedStore } from '../../src/cache/index.js'
import { manualClock } from '../../src/domain/clock.js'
import { storeFailure } from '../../src/domain/error-constructors.js'
import { seededRandom } from '../../src/domain/random.js'
import { createHandler } from '../../src/http/index.js'
import { type AuthorityEvent, createAuthority } from '../../src/index.js'
import { memoryStore } from '../../src/memory/index.js'
import type { TokenStore } from '../../src/store/token-store.js'
import { ALICE, T0 } from '../support/authority-fixtures.js'

// Issue 28: a deadlock in touchLastUsed (MariaDB under a reset) failed the request it recorded, a 500
// on a rotation. A last-used write never fails an authenticated request: dropped, with an event.

const DEADLOCK = Object.assign(new Error('Deadlock found when trying to get lock'), { errno: 1213 })

/** A real memory store whose every `touchLastUsed` fails, as a database that keeps deadlocking. */
function failingTouches(store: TokenStore): TokenStore {
  return { ...store, touchLastUsed: () => errAsync(storeFailure('touchLastUsed', DEADLOCK)) }
}

async function worldOver(wrap: (store: TokenStore) => TokenStore) {
  const inner = memoryStore()
  const events: AuthorityEvent[] = []
  const authority = createAuthority({
    store: wrap(inner),
    pepper: 'test-pepper',
    clock: manualClock(T0),
    random: seededRandom(28),
    onEvent: (event) => events.push(event),
  })
  ;(await authority.users.put(ALICE))._unsafeUnwrap()
  const issued = (
    await authority.issueToken({ userId: ALICE.id, name: 'ci', scopes: ['api', 'self_rotate'] })
  )._unsafeUnwrap()
  events.length = 0
  return { authority, inner, events, issued }
}

describe('issue 28: a failed last-used write never fails the request', () => {
  it('authenticate answers the principal and emits last_used_write_failed with the failure', async () => {
    const { authority, inner, events, issued } = await worldOver(failingTouches)
    const principal = (await authority.authenticate(issued.secret))._unsafeUnwrap()
    expect(principal.user.id).toBe(ALICE.id)
    expect(principal.token.id).toBe(issued.token.id)
    expect(principal.token.lastUsedAt).toBeNull()
    expect(events).toEqual([
      {
        type: 'last_used_write_failed',
        at: T0,
        token: expect.objectContaining({ id: issued.token.id, lastUsedAt: null }),
        failure: { type: 'store_failure', operation: 'touchLastUsed', cause: DEADLOCK },
      },
    ])
    expect(events[0]).not.toHaveProperty('token.digest')
    expect((await inner.findById(issued.token.id))._unsafeUnwrap()?.lastUsedAt).toBeNull()
  })

  it('a rotation whose last-used write fails answers 200 with the successor', async () => {
    const { authority, inner, events, issued } = await worldOver(failingTouches)
    const handler = createHandler(authority)
    const response = await handler(
      new Request('http://gitlab.test/api/v4/personal_access_tokens/self/rotate', {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': issued.secret },
      }),
    )
    expect(response.status).toBe(200)
    const body = (await response.json()) as { id: number }
    expect((await inner.findById(issued.token.id))._unsafeUnwrap()?.revoked).toBe(true)
    expect((await inner.findById(body.id))._unsafeUnwrap()?.previousId).toBe(issued.token.id)
    expect(events.map((event) => event.type)).toEqual(['last_used_write_failed', 'rotated'])
  })

  it("through the cache, a first use's failed write (written at once) does not fail the request either", async () => {
    const { authority, events, issued } = await worldOver((store) => cachedStore(failingTouches(store)))
    expect((await authority.authenticate(issued.secret)).isOk()).toBe(true)
    expect(events.map((event) => event.type)).toEqual(['last_used_write_failed'])
  })

  it('a write that succeeds emits used, and no failure', async () => {
    const { authority, events, issued } = await worldOver((store) => store)
    expect((await authority.authenticate(issued.secret)).isOk()).toBe(true)
    expect(events.map((event) => event.type)).toEqual(['used'])
  })
})
