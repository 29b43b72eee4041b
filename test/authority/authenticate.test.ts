import { describe, expect, it } from 'vitest'
import { ADMIN, ALICE, BLOCKED, DAY, T0, world } from '../support/authority-fixtures.js'

describe('spec 5: authentication', () => {
  it('a request without a token is unauthenticated', async () => {
    const { authority } = await world()
    const missing = { type: 'unauthenticated', reason: 'missing' }
    expect((await authority.authenticate(undefined))._unsafeUnwrapErr()).toEqual(missing)
    expect((await authority.authenticate(''))._unsafeUnwrapErr()).toEqual(missing)
  })

  it('an unknown token is unauthenticated', async () => {
    const { authority } = await world()
    expect((await authority.authenticate('glpat-not-a-real-token'))._unsafeUnwrapErr()).toEqual({
      type: 'unauthenticated',
      reason: 'unknown',
    })
  })

  it('a valid token authenticates its user', async () => {
    const { authority, issue } = await world()
    const { token, secret } = await issue(ALICE.id)
    const principal = (await authority.authenticate(secret))._unsafeUnwrap()
    expect(principal.user).toEqual(ALICE)
    expect(principal.token.id).toBe(token.id)
  })

  it("a valid token of a blocked user is forbidden with GitLab's reason (403, not 401)", async () => {
    const { authority, issue } = await world()
    const { secret } = await issue(BLOCKED.id)
    expect((await authority.authenticate(secret))._unsafeUnwrapErr()).toEqual({
      type: 'forbidden',
      reason: 'Your account has been blocked.',
    })
  })

  it('an expired or revoked token of a blocked user fails as expired or revoked first, as in GitLab', async () => {
    const { authority, issue, clock } = await world()
    const expired = await issue(BLOCKED.id, { expiresAt: '2026-03-11' })
    const revoked = await issue(BLOCKED.id, { revoked: true })
    clock.set(new Date('2026-03-11T00:00:00.000Z'))
    expect((await authority.authenticate(expired.secret))._unsafeUnwrapErr().type).toBe('token_expired')
    expect((await authority.authenticate(revoked.secret))._unsafeUnwrapErr().type).toBe('token_revoked')
  })

  it('an expired token fails as expired from 00:00 UTC of its expires_at day', async () => {
    const { authority, issue, clock } = await world()
    const { token, secret } = await issue(ALICE.id, { expiresAt: '2026-03-11' })
    clock.set(new Date('2026-03-10T23:59:59.999Z'))
    expect((await authority.authenticate(secret)).isOk()).toBe(true)
    clock.set(new Date('2026-03-11T00:00:00.000Z'))
    expect((await authority.authenticate(secret))._unsafeUnwrapErr()).toEqual({
      type: 'token_expired',
      tokenId: token.id,
    })
  })

  it('a revoked token fails as revoked', async () => {
    const { authority, issue } = await world()
    const { token, secret } = await issue(ALICE.id, { revoked: true, expiresAt: null })
    expect((await authority.authenticate(secret))._unsafeUnwrapErr()).toEqual({
      type: 'token_revoked',
      tokenId: token.id,
    })
  })

  it('expired is checked before revoked, as GitLab does', async () => {
    const { authority, issue } = await world()
    const { token, secret } = await issue(ALICE.id, { revoked: true, expiresAt: '2026-03-01' })
    expect((await authority.authenticate(secret))._unsafeUnwrapErr()).toEqual({
      type: 'token_expired',
      tokenId: token.id,
    })
  })

  it('a token with another prefix or a changed character does not authenticate', async () => {
    const { authority, issue } = await world()
    const { secret } = await issue(ALICE.id)
    const altered = secret.slice(0, -1) + (secret.endsWith('a') ? 'b' : 'a')
    expect((await authority.authenticate(altered)).isErr()).toBe(true)
  })
})

describe('last_used_at', () => {
  it('successful authentication records last_used_at', async () => {
    const { authority, issue, events } = await world()
    const { token, secret } = await issue(ALICE.id)
    expect(token.lastUsedAt).toBeNull()
    const principal = (await authority.authenticate(secret))._unsafeUnwrap()
    expect(principal.token.lastUsedAt).toEqual(T0)
    expect(events.filter((e) => e.type === 'used')).toHaveLength(1)
  })

  it('last_used_at is written at most once per throttle window (default 10 minutes)', async () => {
    const { authority, issue, clock, store } = await world()
    const { token, secret } = await issue(ALICE.id)
    await authority.authenticate(secret)
    clock.advance(10 * 60 * 1000 - 1)
    await authority.authenticate(secret)
    expect((await store.findById(token.id))._unsafeUnwrap()?.lastUsedAt).toEqual(T0)
    clock.advance(1)
    await authority.authenticate(secret)
    expect((await store.findById(token.id))._unsafeUnwrap()?.lastUsedAt).toEqual(
      new Date(T0.getTime() + 10 * 60 * 1000),
    )
  })

  it('the throttle window is configurable', async () => {
    const { authority, issue, clock, store } = await world({ lastUsedThrottleMs: 1000 })
    const { token, secret } = await issue(ALICE.id)
    await authority.authenticate(secret)
    clock.advance(1000)
    await authority.authenticate(secret)
    expect((await store.findById(token.id))._unsafeUnwrap()?.lastUsedAt).toEqual(
      new Date(T0.getTime() + 1000),
    )
  })

  it('a failed authentication does not touch last_used_at', async () => {
    const { authority, issue, clock, store } = await world()
    const { token, secret } = await issue(ALICE.id, { expiresAt: '2026-03-12' })
    clock.advance(3 * DAY)
    await authority.authenticate(secret)
    expect((await store.findById(token.id))._unsafeUnwrap()?.lastUsedAt).toBeNull()
  })
})

describe('spec 3: reuse detection', () => {
  async function family() {
    const w = await world()
    const first = await w.login(ALICE.id)
    const second = (await w.authority.rotate(first, 'self'))._unsafeUnwrap()
    const p2 = (await w.authority.authenticate(second.secret))._unsafeUnwrap()
    const third = (await w.authority.rotate(p2, 'self'))._unsafeUnwrap()
    return { ...w, first, second, third }
  }

  it('a revoked token authenticating a rotate request revokes the active tokens rotated from it, and fails as revoked', async () => {
    const { authority, store, first, third, events } = await family()
    const result = await authority.authenticate(first.secret, { rotateRequest: true })
    expect(result._unsafeUnwrapErr()).toEqual({ type: 'token_revoked', tokenId: first.token.id })
    expect((await store.findById(third.token.id))._unsafeUnwrap()?.revoked).toBe(true)
    const detected = events.filter((e) => e.type === 'reuse_detected')
    expect(detected).toHaveLength(1)
    expect(detected[0]).toMatchObject({
      presented: { id: first.token.id },
      revoked: [{ id: third.token.id }],
    })
  })

  it('after reuse detection no token of the family is active', async () => {
    const { authority, first, second, third } = await family()
    await authority.authenticate(second.secret, { rotateRequest: true })
    expect((await authority.authenticate(third.secret))._unsafeUnwrapErr().type).toBe('token_revoked')
    expect((await authority.authenticate(first.secret))._unsafeUnwrapErr().type).toBe('token_revoked')
  })

  it('a revoked token on any other request does not trigger reuse detection', async () => {
    const { authority, store, first, third } = await family()
    expect((await authority.authenticate(first.secret))._unsafeUnwrapErr().type).toBe('token_revoked')
    expect((await store.findById(third.token.id))._unsafeUnwrap()?.revoked).toBe(false)
  })

  it('an expired token presented to rotate does not trigger reuse detection', async () => {
    const { authority, store, clock, issue } = await world()
    const old = await issue(ALICE.id, { expiresAt: '2026-03-12', revoked: true })
    const next = await issue(ALICE.id, { previousId: old.token.id, expiresAt: null })
    clock.advance(3 * DAY)
    expect((await authority.authenticate(old.secret, { rotateRequest: true }))._unsafeUnwrapErr().type).toBe(
      'token_expired',
    )
    expect((await store.findById(next.token.id))._unsafeUnwrap()?.revoked).toBe(false)
  })

  it('reuse detection does not exist before release 16.3', async () => {
    const { authority, store, issue } = await world({ release: '16.2' })
    const old = await issue(ALICE.id, { revoked: true })
    const next = await issue(ALICE.id, { previousId: old.token.id })
    expect((await authority.authenticate(old.secret, { rotateRequest: true }))._unsafeUnwrapErr().type).toBe(
      'token_revoked',
    )
    expect((await store.findById(next.token.id))._unsafeUnwrap()?.revoked).toBe(false)
  })

  it('reuse detection leaves earlier generations and other families alone', async () => {
    const { authority, store, issue } = await world()
    const a1 = await issue(ALICE.id, { revoked: true })
    const a2 = await issue(ALICE.id, { previousId: a1.token.id, revoked: true })
    const a3 = await issue(ALICE.id, { previousId: a2.token.id })
    const other = await issue(ALICE.id)
    const admins = await issue(ADMIN.id)
    await authority.authenticate(a2.secret, { rotateRequest: true })
    expect((await store.findById(a3.token.id))._unsafeUnwrap()?.revoked).toBe(true)
    expect((await store.findById(a1.token.id))._unsafeUnwrap()?.revoked).toBe(true)
    expect((await store.findById(other.token.id))._unsafeUnwrap()?.revoked).toBe(false)
    expect((await store.findById(admins.token.id))._unsafeUnwrap()?.revoked).toBe(false)
  })
})
