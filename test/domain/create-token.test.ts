import { describe, expect, it } from 'vitest'
import { createToken } from '../../src/domain/create-token.js'
import { mintContext } from '../support/domain-fixtures.js'

describe('create', () => {
  it('mints an active first-generation token with its own family and no predecessor', () => {
    const { draft, secret } = createToken(
      { userId: 2, name: 'ci', scopes: ['api'] },
      mintContext('2026-05-01T10:00:00.000Z'),
    )._unsafeUnwrap()
    expect(draft).toMatchObject({
      userId: 2,
      name: 'ci',
      description: null,
      scopes: ['api'],
      revoked: false,
      impersonation: false,
      previousId: null,
      familyId: null,
      lastUsedAt: null,
    })
    expect(secret).toMatch(/^glpat-[A-Za-z0-9_-]{32,}\.01\.[0-9a-z]{9}$/)
  })

  it('the default expiry of a created token is today + the maximum lifetime when expiry is required', () => {
    const ctx = mintContext('2026-05-01T10:00:00.000Z')
    expect(createToken({ userId: 2, name: 'ci', scopes: ['api'] }, ctx)._unsafeUnwrap().draft.expiresAt).toBe(
      '2027-05-01',
    )
  })

  it('a created token never expires by default when expiry is not required', () => {
    const ctx = mintContext('2026-05-01T10:00:00.000Z', {
      expiry: { requireExpiry: false, maxLifetimeDays: 365 },
    })
    expect(
      createToken({ userId: 2, name: 'ci', scopes: ['api'] }, ctx)._unsafeUnwrap().draft.expiresAt,
    ).toBeNull()
  })

  it('a blank name is rejected', () => {
    const r = createToken({ userId: 2, name: '  ', scopes: ['api'] }, mintContext('2026-05-01'))
    expect(r._unsafeUnwrapErr()).toEqual({ type: 'validation_failed', message: "Name can't be blank" })
  })

  it('empty scopes are rejected', () => {
    const r = createToken({ userId: 2, name: 'ci', scopes: [] }, mintContext('2026-05-01'))
    expect(r._unsafeUnwrapErr()).toEqual({ type: 'validation_failed', message: "Scopes can't be blank" })
  })

  it('unknown scopes are rejected, naming the parameter', () => {
    const r = createToken({ userId: 2, name: 'ci', scopes: ['api', 'root'] }, mintContext('2026-05-01'))
    expect(r._unsafeUnwrapErr()).toEqual({
      type: 'invalid_parameter',
      parameter: 'scopes',
      reason: 'not_allowed_value',
    })
  })

  it('name and description are limited to 255 characters', () => {
    const ctx = mintContext('2026-05-01')
    expect(createToken({ userId: 2, name: 'n'.repeat(255), scopes: ['api'] }, ctx).isOk()).toBe(true)
    expect(
      createToken({ userId: 2, name: 'n'.repeat(256), scopes: ['api'] }, ctx)._unsafeUnwrapErr(),
    ).toEqual({
      type: 'validation_failed',
      message: 'Name is too long (maximum is 255 characters)',
    })
    expect(
      createToken(
        { userId: 2, name: 'ci', description: 'd'.repeat(256), scopes: ['api'] },
        ctx,
      )._unsafeUnwrapErr(),
    ).toEqual({ type: 'validation_failed', message: 'Description is too long (maximum is 255 characters)' })
  })

  it('duplicate scopes are kept once', () => {
    const r = createToken({ userId: 2, name: 'ci', scopes: ['api', 'api'] }, mintContext('2026-05-01'))
    expect(r._unsafeUnwrap().draft.scopes).toEqual(['api'])
  })

  it('an explicit expiry follows the same window as rotation', () => {
    const ctx = mintContext('2026-05-01T10:00:00.000Z')
    expect(createToken({ userId: 2, name: 'ci', scopes: ['api'], expiresAt: '2027-05-01' }, ctx).isOk()).toBe(
      true,
    )
    expect(
      createToken(
        { userId: 2, name: 'ci', scopes: ['api'], expiresAt: '2027-05-02' },
        ctx,
      )._unsafeUnwrapErr(),
    ).toEqual({ type: 'invalid_expiry', message: 'Expiration date must be before 2027-05-01' })
  })
})
