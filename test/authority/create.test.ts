import { describe, expect, it } from 'vitest'
import { ADMIN, ALICE, BOB, world } from '../support/authority-fixtures.js'

describe('spec 4.8: creating tokens', () => {
  it('an administrator creates a token for any user and receives its secret once', async () => {
    const { authority, login, events } = await world()
    const admin = await login(ADMIN.id)
    events.length = 0
    const created = (
      await authority.create(admin, BOB.id, { name: 'ci', scopes: ['read_api'], expiresAt: '2026-12-31' })
    )._unsafeUnwrap()
    expect(created.token).toMatchObject({
      userId: BOB.id,
      name: 'ci',
      scopes: ['read_api'],
      expiresAt: '2026-12-31',
    })
    expect(events).toMatchObject([
      { type: 'created', actorUserId: ADMIN.id, token: { id: created.token.id } },
    ])
    expect(JSON.stringify(events)).not.toContain(created.secret)
    expect((await authority.authenticate(created.secret))._unsafeUnwrap().user.id).toBe(BOB.id)
  })

  it('without expires_at a created token lives the maximum lifetime', async () => {
    const { authority, login } = await world()
    const admin = await login(ADMIN.id)
    const created = (await authority.create(admin, BOB.id, { name: 'ci', scopes: ['api'] }))._unsafeUnwrap()
    expect(created.token.expiresAt).toBe('2027-03-10')
  })

  it('a non-administrator cannot create tokens for a user (403)', async () => {
    const { authority, login } = await world()
    const alice = await login(ALICE.id)
    expect(
      (await authority.create(alice, ALICE.id, { name: 'x', scopes: ['api'] }))._unsafeUnwrapErr(),
    ).toEqual({
      type: 'forbidden',
    })
  })

  it('an administrator creating a token for an unknown user gets not_found', async () => {
    const { authority, login } = await world()
    const admin = await login(ADMIN.id)
    expect((await authority.create(admin, 999, { name: 'x', scopes: ['api'] }))._unsafeUnwrapErr()).toEqual({
      type: 'not_found',
      entity: 'user',
    })
  })

  it('a user creates a token for themselves only with k8s_proxy and self_rotate scopes', async () => {
    const { authority, login } = await world()
    const alice = await login(ALICE.id)
    const ok = (
      await authority.create(alice, 'self', { name: 'k8s', scopes: ['k8s_proxy', 'self_rotate'] })
    )._unsafeUnwrap()
    expect(ok.token.userId).toBe(ALICE.id)
    expect(
      (await authority.create(alice, 'self', { name: 'x', scopes: ['api'] }))._unsafeUnwrapErr(),
    ).toEqual({
      type: 'invalid_parameter',
      parameter: 'scopes',
      reason: 'not_allowed_value',
    })
  })

  it('unknown scopes, blank names and bad dates are refused', async () => {
    const { authority, login } = await world()
    const admin = await login(ADMIN.id)
    expect(
      (await authority.create(admin, BOB.id, { name: 'x', scopes: ['root'] }))._unsafeUnwrapErr().type,
    ).toBe('invalid_parameter')
    expect(
      (await authority.create(admin, BOB.id, { name: ' ', scopes: ['api'] }))._unsafeUnwrapErr(),
    ).toEqual({
      type: 'validation_failed',
      message: "Name can't be blank",
    })
    expect(
      (
        await authority.create(admin, BOB.id, { name: 'x', scopes: ['api'], expiresAt: 'soon' })
      )._unsafeUnwrapErr(),
    ).toEqual({ type: 'invalid_parameter', parameter: 'expires_at', reason: 'invalid' })
    expect(
      (
        await authority.create(admin, BOB.id, { name: 'x', scopes: ['api'], expiresAt: '2028-01-01' })
      )._unsafeUnwrapErr(),
    ).toEqual({ type: 'invalid_expiry', message: 'Expiration date must be before 2027-03-10' })
  })

  it('admin-only scopes need an administrator as owner', async () => {
    const { authority, login } = await world()
    const admin = await login(ADMIN.id)
    expect(
      (await authority.create(admin, BOB.id, { name: 'x', scopes: ['sudo'] }))._unsafeUnwrapErr(),
    ).toEqual({
      type: 'validation_failed',
      message: 'Scopes can only contain available scopes',
    })
    expect((await authority.create(admin, ADMIN.id, { name: 'x', scopes: ['sudo'] })).isOk()).toBe(true)
  })

  it('creating needs the api scope', async () => {
    const { authority, login } = await world()
    const admin = await login(ADMIN.id, { scopes: ['read_api'] })
    expect(
      (await authority.create(admin, BOB.id, { name: 'x', scopes: ['api'] }))._unsafeUnwrapErr().type,
    ).toBe('insufficient_scope')
  })
})
