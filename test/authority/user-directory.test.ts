import { okAsync } from 'neverthrow'
import { describe, expect, it } from 'vitest'
import { manualClock } from '../../src/domain/clock.js'
import { createAuthority, type User } from '../../src/index.js'
import { memoryStore } from '../../src/memory/index.js'
import type { TokenStore } from '../../src/store/index.js'
import { ALICE, T0 } from '../support/authority-fixtures.js'

async function secretFor(store: TokenStore, users?: { findUser: TokenStore['findUser'] }) {
  const authority = createAuthority({
    store,
    pepper: 'test-pepper',
    clock: manualClock(T0),
    ...(users === undefined ? {} : { users }),
  })
  const stored = await store.putUser(ALICE)
  expect(stored.isOk()).toBe(true)
  const issued = (
    await authority.issueToken({ userId: ALICE.id, name: 't', scopes: ['api'] })
  )._unsafeUnwrap()
  return { authority, secret: issued.secret }
}

describe('authenticate and the user directory', () => {
  it('a separate users directory decides the owner, not the store joined lookup', async () => {
    const store = memoryStore()
    const blocked: User = { ...ALICE, blocked: true }
    const { authority, secret } = await secretFor(store, { findUser: () => okAsync(blocked) })
    expect((await authority.authenticate(secret))._unsafeUnwrapErr()).toEqual({
      type: 'forbidden',
      reason: 'Your account has been blocked.',
    })
  })
})
