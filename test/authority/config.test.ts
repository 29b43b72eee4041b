import { describe, expect, it } from 'vitest'
import { LATEST_RELEASE, type Release } from '../../src/authority/core/release.js'
import { AuthorityConfigError, createAuthority } from '../../src/index.js'
import { memoryStore } from '../../src/memory/index.js'
import { ALICE, world } from '../support/authority-fixtures.js'

describe('authority configuration', () => {
  it('an empty pepper is refused at construction', () => {
    expect(() => createAuthority({ store: memoryStore(), pepper: '' })).toThrow(AuthorityConfigError)
  })

  it('a malformed release names the option', () => {
    expect(() =>
      createAuthority({ store: memoryStore(), pepper: 'p', release: 'latest' as Release }),
    ).toThrow(/invalid option release/)
  })

  it('a bad max lifetime or throttle names the option', () => {
    expect(() => createAuthority({ store: memoryStore(), pepper: 'p', maxLifetimeDays: 0 })).toThrow(
      /maxLifetimeDays/,
    )
    expect(() => createAuthority({ store: memoryStore(), pepper: 'p', lastUsedThrottleMs: -1 })).toThrow(
      /lastUsedThrottleMs/,
    )
  })

  it('the default release is the latest', () => {
    expect(createAuthority({ store: memoryStore(), pepper: 'p' }).settings.release).toBe(LATEST_RELEASE)
  })

  it('a custom token prefix is used for new secrets', async () => {
    const { authority, login } = await world({ tokenPrefix: 'acme-' })
    const alice = await login(ALICE.id)
    expect((await authority.rotate(alice, 'self'))._unsafeUnwrap().secret).toMatch(
      /^acme-[A-Za-z0-9_-]{32,}\.01\.[0-9a-z]{9}$/,
    )
  })

  it('a different pepper cannot authenticate tokens stored under another', async () => {
    const store = memoryStore()
    await store.putUser(ALICE)
    const a = createAuthority({ store, pepper: 'one' })
    const issued = (
      await a.issueToken({ userId: ALICE.id, name: 'x', scopes: ['api'], secret: 'glpat-fixed-secret' })
    )._unsafeUnwrap()
    expect((await a.authenticate(issued.secret)).isOk()).toBe(true)
    const b = createAuthority({ store, pepper: 'two' })
    expect((await b.authenticate(issued.secret))._unsafeUnwrapErr().type).toBe('unauthenticated')
  })

  it('a throwing event listener does not fail the operation', async () => {
    const { authority, login } = await world({
      onEvent: () => {
        throw new Error('listener bug')
      },
    })
    const alice = await login(ALICE.id)
    expect((await authority.rotate(alice, 'self')).isOk()).toBe(true)
  })
})

describe('seeding with issueToken', () => {
  it('a known secret authenticates and only its digest is stored', async () => {
    const { authority, store } = await world()
    const issued = (
      await authority.issueToken({
        userId: ALICE.id,
        name: 'ci',
        scopes: ['api'],
        secret: 'glpat-known-secret',
        id: 40,
      })
    )._unsafeUnwrap()
    expect(issued.token.id).toBe(40)
    expect(issued.token.familyId).toBe(40)
    expect(JSON.stringify((await store.findById(40))._unsafeUnwrap())).not.toContain('glpat-known-secret')
    expect((await authority.authenticate('glpat-known-secret'))._unsafeUnwrap().token.id).toBe(40)
  })

  it('an unknown user, unknown scope or blank name is refused', async () => {
    const { authority } = await world()
    expect(
      (await authority.issueToken({ userId: 999, name: 'x', scopes: ['api'] }))._unsafeUnwrapErr().type,
    ).toBe('not_found')
    expect(
      (await authority.issueToken({ userId: ALICE.id, name: 'x', scopes: ['nope'] }))._unsafeUnwrapErr().type,
    ).toBe('invalid_parameter')
    expect(
      (await authority.issueToken({ userId: ALICE.id, name: '', scopes: ['api'] }))._unsafeUnwrapErr().type,
    ).toBe('validation_failed')
  })
})
