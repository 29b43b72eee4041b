import { describe, expect, it } from 'vitest'
import { ADMIN, ALICE, BOB, world } from '../support/authority-fixtures.js'

describe('spec 4.4: rotate a token by id', () => {
  it('rule 1: the previous token is revoked and a new one created, expiring one week later by default', async () => {
    const { authority, store, login, issue } = await world()
    const alice = await login(ALICE.id)
    const target = await issue(ALICE.id, { name: 'deploy', scopes: ['read_api'], description: 'prod' })
    const rotated = (await authority.rotate(alice, target.token.id))._unsafeUnwrap()
    expect((await store.findById(target.token.id))._unsafeUnwrap()?.revoked).toBe(true)
    expect(rotated.token).toMatchObject({
      userId: ALICE.id,
      name: 'deploy',
      description: 'prod',
      scopes: ['read_api'],
      revoked: false,
      expiresAt: '2026-03-17',
      previousId: target.token.id,
      familyId: target.token.familyId,
    })
    expect(rotated.secret).toMatch(/^glpat-/)
    expect((await authority.authenticate(rotated.secret)).isOk()).toBe(true)
    expect((await authority.authenticate(target.secret))._unsafeUnwrapErr().type).toBe('token_revoked')
  })

  it('expires_at sets the new expiry, at most one year after the rotation date', async () => {
    const { authority, login, issue } = await world()
    const alice = await login(ALICE.id)
    const a = await issue(ALICE.id)
    expect(
      (await authority.rotate(alice, a.token.id, { expiresAt: '2027-03-10' }))._unsafeUnwrap().token
        .expiresAt,
    ).toBe('2027-03-10')
    const b = await issue(ALICE.id)
    expect(
      (await authority.rotate(alice, b.token.id, { expiresAt: '2027-03-11' }))._unsafeUnwrapErr(),
    ).toEqual({
      type: 'invalid_expiry',
      message: 'Expiration date must be before 2027-03-10',
    })
  })

  it('a malformed expires_at is an invalid parameter', async () => {
    const { authority, login, issue } = await world()
    const alice = await login(ALICE.id)
    const a = await issue(ALICE.id)
    expect(
      (await authority.rotate(alice, a.token.id, { expiresAt: '2026-02-30' }))._unsafeUnwrapErr(),
    ).toEqual({
      type: 'invalid_parameter',
      parameter: 'expires_at',
      reason: 'invalid',
    })
  })

  it('without required expiry the rotated token never expires', async () => {
    const { authority, login, issue } = await world({ requireExpiry: false })
    const alice = await login(ALICE.id)
    const a = await issue(ALICE.id)
    expect((await authority.rotate(alice, a.token.id))._unsafeUnwrap().token.expiresAt).toBeNull()
  })

  it('rule 2: an administrator can rotate tokens of any user', async () => {
    const { authority, login, issue } = await world()
    const admin = await login(ADMIN.id)
    const bobs = await issue(BOB.id)
    expect((await authority.rotate(admin, bobs.token.id))._unsafeUnwrap().token.userId).toBe(BOB.id)
  })

  it('rotating a revoked token fails with already_revoked (400) and revokes nothing else', async () => {
    const { authority, store, login, issue } = await world()
    const alice = await login(ALICE.id)
    const old = await issue(ALICE.id, { revoked: true })
    const next = await issue(ALICE.id, { previousId: old.token.id })
    expect((await authority.rotate(alice, old.token.id))._unsafeUnwrapErr()).toEqual({
      type: 'already_revoked',
      tokenId: old.token.id,
    })
    expect((await store.findById(next.token.id))._unsafeUnwrap()?.revoked).toBe(false)
  })

  it('a non-administrator rotating a foreign or missing token gets unauthorized', async () => {
    const { authority, login, issue } = await world()
    const alice = await login(ALICE.id)
    const bobs = await issue(BOB.id)
    expect((await authority.rotate(alice, bobs.token.id))._unsafeUnwrapErr()).toEqual({
      type: 'unauthorized',
    })
    expect((await authority.rotate(alice, 999))._unsafeUnwrapErr()).toEqual({ type: 'unauthorized' })
  })

  it('an administrator rotating a missing token gets not_found', async () => {
    const { authority, login } = await world()
    const admin = await login(ADMIN.id)
    expect((await authority.rotate(admin, 999))._unsafeUnwrapErr()).toEqual({
      type: 'not_found',
      entity: 'token',
    })
  })

  it('a read_api token cannot rotate', async () => {
    const { authority, login } = await world()
    const alice = await login(ALICE.id, { scopes: ['read_api'] })
    expect((await authority.rotate(alice, alice.token.id))._unsafeUnwrapErr()).toEqual({
      type: 'insufficient_scope',
      required: ['api'],
    })
  })

  it('an expired token that is not revoked can be rotated by id', async () => {
    const { authority, login, issue } = await world()
    const alice = await login(ALICE.id)
    const expired = await issue(ALICE.id, { expiresAt: '2026-03-01' })
    expect((await authority.rotate(alice, expired.token.id)).isOk()).toBe(true)
  })

  it('rotate by id exists from release 16.0', async () => {
    const old = await world({ release: '15.11' })
    const alice = await old.login(ALICE.id)
    expect((await old.authority.rotate(alice, alice.token.id))._unsafeUnwrapErr()).toEqual({
      type: 'feature_unavailable',
      feature: 'rotate_by_id',
      release: '15.11',
    })
    const current = await world({ release: '16.0' })
    const alice2 = await current.login(ALICE.id)
    expect((await current.authority.rotate(alice2, alice2.token.id)).isOk()).toBe(true)
  })

  it('expires_at on rotation exists from 16.6; before, it is ignored and the week default applies', async () => {
    const old = await world({ release: '16.5' })
    const alice = await old.login(ALICE.id)
    const rotated = (
      await old.authority.rotate(alice, alice.token.id, { expiresAt: '2026-04-01' })
    )._unsafeUnwrap()
    expect(rotated.token.expiresAt).toBe('2026-03-17')
  })

  it('of 16 concurrent rotations of one token exactly one succeeds; the others fail with already_revoked', async () => {
    const { authority, login, issue, store } = await world()
    const alice = await login(ALICE.id)
    const target = await issue(ALICE.id)
    const results = await Promise.all(
      Array.from({ length: 16 }, () => authority.rotate(alice, target.token.id)),
    )
    expect(results.filter((r) => r.isOk())).toHaveLength(1)
    for (const r of results.filter((r) => r.isErr()))
      expect(r._unsafeUnwrapErr().type).toBe('already_revoked')
    const family = (
      await store.list({
        filter: { userId: ALICE.id },
        sort: 'id_asc',
        page: { page: 1, perPage: 100 },
        now: new Date('2026-03-10T12:00:00.000Z'),
      })
    )._unsafeUnwrap()
    expect(family.items.filter((t) => t.familyId === target.token.familyId && !t.revoked)).toHaveLength(1)
  })

  it('rotation emits a rotated event without any secret', async () => {
    const { authority, login, issue, events } = await world()
    const alice = await login(ALICE.id)
    const target = await issue(ALICE.id)
    events.length = 0
    const rotated = (await authority.rotate(alice, target.token.id))._unsafeUnwrap()
    expect(events).toHaveLength(1)
    expect(events[0]).toMatchObject({
      type: 'rotated',
      actorUserId: ALICE.id,
      previous: { id: target.token.id, revoked: true },
      token: { id: rotated.token.id },
    })
    const serialized = JSON.stringify(events)
    expect(serialized).not.toContain(rotated.secret)
    expect(serialized).not.toContain(rotated.token.digest)
  })
})

describe('spec 4.5: rotate the presented token', () => {
  it('self rotation returns a new token and revokes the presented one', async () => {
    const { authority, login } = await world()
    const alice = await login(ALICE.id)
    const rotated = (await authority.rotate(alice, 'self', { expiresAt: '2026-06-01' }))._unsafeUnwrap()
    expect(rotated.token).toMatchObject({ previousId: alice.token.id, expiresAt: '2026-06-01' })
    expect((await authority.authenticate(alice.secret))._unsafeUnwrapErr().type).toBe('token_revoked')
  })

  it('self rotation needs the api or self_rotate scope', async () => {
    const { authority, login } = await world()
    const selfRotate = await login(ALICE.id, { scopes: ['self_rotate'] })
    expect((await authority.rotate(selfRotate, 'self')).isOk()).toBe(true)
    const reader = await login(ALICE.id, { scopes: ['read_api'] })
    expect((await authority.rotate(reader, 'self'))._unsafeUnwrapErr()).toEqual({
      type: 'insufficient_scope',
      required: ['api', 'self_rotate'],
    })
  })

  it('self rotation exists from release 16.10', async () => {
    const old = await world({ release: '16.9' })
    const alice = await old.login(ALICE.id)
    expect((await old.authority.rotate(alice, 'self'))._unsafeUnwrapErr().type).toBe('feature_unavailable')
    const current = await world({ release: '16.10' })
    const alice2 = await current.login(ALICE.id)
    expect((await current.authority.rotate(alice2, 'self')).isOk()).toBe(true)
  })

  it('a non-administrator can rotate their own impersonation token through self', async () => {
    const { authority, login } = await world()
    const imp = await login(ALICE.id, { impersonation: true })
    expect((await authority.rotate(imp, 'self'))._unsafeUnwrap().token.impersonation).toBe(true)
  })
})

describe('spec 3: token families', () => {
  it('in a family only the latest token is active and all earlier ones are revoked', async () => {
    const { authority, login, store } = await world()
    let principal = await login(ALICE.id)
    const ids = [principal.token.id]
    for (let i = 0; i < 4; i++) {
      const next = (await authority.rotate(principal, 'self'))._unsafeUnwrap()
      ids.push(next.token.id)
      principal = { ...(await authority.authenticate(next.secret))._unsafeUnwrap(), secret: next.secret }
    }
    const tokens = await Promise.all(ids.map(async (id) => (await store.findById(id))._unsafeUnwrap()))
    expect(tokens.map((t) => t?.revoked)).toEqual([true, true, true, true, false])
    expect(new Set(tokens.map((t) => t?.familyId))).toEqual(new Set([ids[0]]))
    expect(tokens.slice(1).map((t) => t?.previousId)).toEqual(ids.slice(0, -1))
  })
})
