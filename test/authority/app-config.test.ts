import { describe, expect, it } from 'vitest'
import { AuthorityConfigError, createAuthority } from '../../src/index.js'
import { memoryStore } from '../../src/memory/index.js'
import { ALICE, world } from '../support/authority-fixtures.js'

const APP_SCOPES = ['read', 'write', 'billing:admin'] as const

describe('issue 13: an application’s own scope vocabulary', () => {
  it('creation accepts the configured scopes and refuses others, GitLab’s included', async () => {
    const { authority } = await world({ scopes: APP_SCOPES })
    const session = (await authority.asUser(ALICE.id))._unsafeUnwrap()
    const created = (
      await authority.createOwn(session, { name: 'x', scopes: ['read', 'billing:admin'] })
    )._unsafeUnwrap()
    expect(created.token.scopes).toEqual(['read', 'billing:admin'])
    const refused = { type: 'invalid_parameter', parameter: 'scopes', reason: 'not_allowed_value' }
    expect((await authority.createOwn(session, { name: 'x', scopes: ['api'] }))._unsafeUnwrapErr()).toEqual(
      refused,
    )
    expect(
      (await authority.issueToken({ userId: ALICE.id, name: 'x', scopes: ['read_api'] }))._unsafeUnwrapErr(),
    ).toEqual(refused)
    expect((await authority.issueToken({ userId: ALICE.id, name: 'x', scopes: ['write'] })).isOk()).toBe(true)
  })

  it('verify checks the configured scopes', async () => {
    const { authority } = await world({ scopes: APP_SCOPES })
    const { secret, token } = (
      await authority.issueToken({ userId: ALICE.id, name: 'x', scopes: ['read'] })
    )._unsafeUnwrap()
    expect((await authority.verify(secret, { scopes: ['read', 'write'] }))._unsafeUnwrap().valid).toBe(true)
    expect((await authority.verify(secret, { scopes: ['write'] }))._unsafeUnwrap()).toEqual({
      valid: false,
      code: 'insufficient_scope',
      tokenId: token.id,
    })
  })

  it('GitLab’s vocabulary stays the default', async () => {
    const { authority } = await world()
    expect(
      (await authority.issueToken({ userId: ALICE.id, name: 'x', scopes: ['read'] }))._unsafeUnwrapErr(),
    ).toEqual({
      type: 'invalid_parameter',
      parameter: 'scopes',
      reason: 'not_allowed_value',
    })
  })

  it('an invalid vocabulary fails at start-up with the option’s name', () => {
    const store = memoryStore()
    for (const scopes of [[], ['has space'], ['quote"'], ['x'.repeat(256)], [''], 'read']) {
      expect(() => createAuthority({ store, pepper: 'p', scopes: scopes as never })).toThrow(
        AuthorityConfigError,
      )
      expect(() => createAuthority({ store, pepper: 'p', scopes: scopes as never })).toThrow(
        /invalid option scopes: /,
      )
    }
  })
})

describe('issue 13: the rotation default lifetime', () => {
  // T0 is 2026-03-10.
  it('is GitLab’s week by default and rotationDefaultDays when given, capped by maxLifetimeDays', async () => {
    for (const [options, expected] of [
      [{}, '2026-03-17'],
      [{ rotationDefaultDays: 30 }, '2026-04-09'],
      [{ rotationDefaultDays: 30, maxLifetimeDays: 10 }, '2026-03-20'],
    ] as const) {
      const { authority, login } = await world(options)
      const alice = await login(ALICE.id)
      expect((await authority.rotate(alice, 'self'))._unsafeUnwrap().token.expiresAt).toBe(expected)
    }
  })

  it('refuses an invalid value at start-up', () => {
    for (const rotationDefaultDays of [0, -1, 1.5, 36_501]) {
      expect(() => createAuthority({ store: memoryStore(), pepper: 'p', rotationDefaultDays })).toThrow(
        /invalid option rotationDefaultDays: /,
      )
    }
  })
})
