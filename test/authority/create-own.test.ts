import { describe, expect, it } from 'vitest'
import { ALICE, world } from '../support/authority-fixtures.js'

// T0 is 2026-03-10; the default maximum lifetime is 365 days, so the last allowed day is 2027-03-10.
describe('issue 13: createOwn keeps every check of a creation', () => {
  it('creates any configured scope for oneself, unlike GitLab’s self-service rule', async () => {
    const { authority, login } = await world()
    const alice = await login(ALICE.id)
    const created = (
      await authority.createOwn(alice, { name: 'ci', scopes: ['read_api', 'write_repository'] })
    )._unsafeUnwrap()
    expect(created.token).toMatchObject({ userId: ALICE.id, expiresAt: '2027-03-10' })
    // The HTTP binding's rule is unchanged: `create(…, 'self')` still allows k8s_proxy and self_rotate only.
    expect(
      (await authority.create(alice, 'self', { name: 'x', scopes: ['api'] }))._unsafeUnwrapErr(),
    ).toEqual({
      type: 'invalid_parameter',
      parameter: 'scopes',
      reason: 'not_allowed_value',
    })
  })

  it('refuses a past day and a day beyond the maximum lifetime, which issueToken accepts', async () => {
    const { authority, login } = await world()
    const alice = await login(ALICE.id)
    for (const expiresAt of ['2020-01-01', '2026-03-10']) {
      expect(
        (await authority.createOwn(alice, { name: 'x', scopes: ['api'], expiresAt }))._unsafeUnwrapErr(),
      ).toEqual({ type: 'invalid_expiry', message: 'Expiration date must be after 2026-03-10' })
    }
    for (const expiresAt of ['9999-12-31', '2027-03-11']) {
      expect(
        (await authority.createOwn(alice, { name: 'x', scopes: ['api'], expiresAt }))._unsafeUnwrapErr(),
      ).toEqual({ type: 'invalid_expiry', message: 'Expiration date must be before 2027-03-10' })
    }
    expect(
      (
        await authority.createOwn(alice, { name: 'x', scopes: ['api'], expiresAt: '2027-03-10' })
      )._unsafeUnwrap().token.expiresAt,
    ).toBe('2027-03-10')
    // issueToken is the unchecked seeding tool: both dates go in as given (an expired seed, a long fixture).
    for (const expiresAt of ['2020-01-01', '9999-12-31']) {
      const seeded = await authority.issueToken({
        userId: ALICE.id,
        name: 'seed',
        scopes: ['api'],
        expiresAt,
      })
      expect(seeded._unsafeUnwrap().token.expiresAt).toBe(expiresAt)
    }
  })

  it('follows maxLifetimeDays and requireExpiry', async () => {
    const { authority, login } = await world({ maxLifetimeDays: 30 })
    const alice = await login(ALICE.id)
    expect(
      (await authority.createOwn(alice, { name: 'x', scopes: ['api'] }))._unsafeUnwrap().token.expiresAt,
    ).toBe('2026-04-09')
    expect(
      (
        await authority.createOwn(alice, { name: 'x', scopes: ['api'], expiresAt: '2026-04-10' })
      )._unsafeUnwrapErr().type,
    ).toBe('invalid_expiry')
    const open = await world({ requireExpiry: false })
    const bob = await open.login(ALICE.id)
    expect(
      (await open.authority.createOwn(bob, { name: 'x', scopes: ['api'] }))._unsafeUnwrap().token.expiresAt,
    ).toBe(null)
    expect(
      (
        await open.authority.createOwn(bob, { name: 'x', scopes: ['api'], expiresAt: '2020-01-01' })
      )._unsafeUnwrapErr().type,
    ).toBe('invalid_expiry')
  })

  it('refuses unknown and admin-only scopes for a non-administrator, and blank names', async () => {
    const { authority, login } = await world()
    const alice = await login(ALICE.id)
    expect((await authority.createOwn(alice, { name: 'x', scopes: ['sudo'] }))._unsafeUnwrapErr()).toEqual({
      type: 'validation_failed',
      message: 'Scopes can only contain available scopes',
    })
    expect((await authority.createOwn(alice, { name: 'x', scopes: ['nope'] }))._unsafeUnwrapErr()).toEqual({
      type: 'invalid_parameter',
      parameter: 'scopes',
      reason: 'not_allowed_value',
    })
    expect((await authority.createOwn(alice, { name: ' ', scopes: ['api'] }))._unsafeUnwrapErr()).toEqual({
      type: 'validation_failed',
      message: "Name can't be blank",
    })
  })

  it('needs the api scope from a token principal', async () => {
    const { authority, login } = await world()
    const reader = await login(ALICE.id, { scopes: ['read_api'] })
    expect(
      (await authority.createOwn(reader, { name: 'x', scopes: ['read_api'] }))._unsafeUnwrapErr(),
    ).toEqual({
      type: 'insufficient_scope',
      required: ['api'],
    })
  })
})
