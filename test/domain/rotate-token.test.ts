import { describe, expect, it } from 'vitest'
import { rotateToken } from '../../src/domain/rotate-token.js'
import { mintContext, token } from '../support/domain-fixtures.js'

describe('rotate', () => {
  it('the successor inherits user, name, description, scopes and impersonation', () => {
    const old = token({
      id: 4,
      userId: 9,
      name: 'deploy',
      description: 'prod',
      scopes: ['read_api', 'read_repository'],
      impersonation: true,
      familyId: 2,
      previousId: 2,
    })
    const { successor } = rotateToken(old, {}, mintContext('2026-03-10T08:00:00.000Z'))._unsafeUnwrap()
    expect(successor).toMatchObject({
      userId: 9,
      name: 'deploy',
      description: 'prod',
      scopes: ['read_api', 'read_repository'],
      impersonation: true,
      revoked: false,
      lastUsedAt: null,
    })
  })

  it("the successor keeps a fine-grained token's granular scopes, as GitLab's RotateService copies them", () => {
    const granularScopes = [
      {
        access: 'user' as const,
        permissions: ['read_personal_access_token'],
        projectId: null,
        groupId: null,
      },
      {
        access: 'selected_memberships' as const,
        permissions: ['read_project'],
        projectId: 42,
        groupId: null,
      },
    ]
    const old = token({ id: 4, scopes: [], granularScopes })
    const { successor } = rotateToken(old, {}, mintContext('2026-03-10T08:00:00.000Z'))._unsafeUnwrap()
    expect(successor.granularScopes).toEqual(granularScopes)
  })

  it('the successor of a legacy token has no granular scopes', () => {
    const { successor } = rotateToken(
      token({ id: 4 }),
      {},
      mintContext('2026-03-10T08:00:00.000Z'),
    )._unsafeUnwrap()
    expect(successor).not.toHaveProperty('granularScopes')
  })

  it('links previous_id to the rotated token and keeps the family id', () => {
    const old = token({ id: 4, familyId: 2, previousId: 2 })
    const { successor, revoked } = rotateToken(
      old,
      {},
      mintContext('2026-03-10T08:00:00.000Z'),
    )._unsafeUnwrap()
    expect(successor.previousId).toBe(4)
    expect(successor.familyId).toBe(2)
    expect(revoked).toEqual({ ...old, revoked: true })
  })

  it('stamps created_at with the injected now, at millisecond precision', () => {
    const { successor } = rotateToken(token(), {}, mintContext('2026-03-10T08:00:00.123Z'))._unsafeUnwrap()
    expect(successor.createdAt.toISOString()).toBe('2026-03-10T08:00:00.123Z')
  })

  it('returns a fresh secret and stores only its digest', () => {
    const ctx = mintContext('2026-03-10T08:00:00.000Z')
    const { successor, secret } = rotateToken(token(), {}, ctx)._unsafeUnwrap()
    expect(secret.startsWith('glpat-')).toBe(true)
    expect(successor.digest).toBe(ctx.digest(secret))
    expect(JSON.stringify(successor)).not.toContain(secret)
  })

  it('rotating a revoked token fails with already_revoked', () => {
    const result = rotateToken(token({ id: 3, revoked: true }), {}, mintContext('2026-03-10T08:00:00.000Z'))
    expect(result._unsafeUnwrapErr()).toEqual({ type: 'already_revoked', tokenId: 3 })
  })

  it('an expired but not revoked token can be rotated, as in GitLab', () => {
    const expired = token({ expiresAt: '2026-03-01' })
    expect(rotateToken(expired, {}, mintContext('2026-03-10T08:00:00.000Z')).isOk()).toBe(true)
  })

  it('the default expiry is today + 7 days UTC, across a month end', () => {
    const { successor } = rotateToken(token(), {}, mintContext('2026-01-28T23:59:59.999Z'))._unsafeUnwrap()
    expect(successor.expiresAt).toBe('2026-02-04')
  })

  it('the default expiry is today + 7 days UTC, across a year end and in a leap February', () => {
    expect(
      rotateToken(token(), {}, mintContext('2026-12-30T00:00:00.000Z'))._unsafeUnwrap().successor.expiresAt,
    ).toBe('2027-01-06')
    expect(
      rotateToken(token(), {}, mintContext('2028-02-25T12:00:00.000Z'))._unsafeUnwrap().successor.expiresAt,
    ).toBe('2028-03-03')
  })

  it('without required expiry the default is no expiry', () => {
    const ctx = mintContext('2026-01-28T00:00:00.000Z', {
      expiry: { requireExpiry: false, maxLifetimeDays: 365 },
    })
    expect(rotateToken(token(), {}, ctx)._unsafeUnwrap().successor.expiresAt).toBeNull()
  })

  it('an explicit expires_at of today + 365 days is accepted', () => {
    const result = rotateToken(token(), { expiresAt: '2027-03-10' }, mintContext('2026-03-10T23:00:00.000Z'))
    expect(result._unsafeUnwrap().successor.expiresAt).toBe('2027-03-10')
  })

  it('an explicit expires_at of today + 366 days is rejected with GitLab message', () => {
    const result = rotateToken(token(), { expiresAt: '2027-03-11' }, mintContext('2026-03-10T23:00:00.000Z'))
    expect(result._unsafeUnwrapErr()).toEqual({
      type: 'invalid_expiry',
      message: 'Expiration date must be before 2027-03-10',
    })
  })

  it('the 365-day bound counts a leap year as 366 calendar days', () => {
    // 2028-01-01 + 365 days is 2028-12-31: 2028 is a leap year.
    const ctx = mintContext('2028-01-01T00:00:00.000Z')
    expect(rotateToken(token(), { expiresAt: '2028-12-31' }, ctx).isOk()).toBe(true)
    expect(rotateToken(token(), { expiresAt: '2029-01-01' }, ctx)._unsafeUnwrapErr()).toEqual({
      type: 'invalid_expiry',
      message: 'Expiration date must be before 2028-12-31',
    })
  })

  it('an explicit expires_at must be after today', () => {
    const ctx = mintContext('2026-03-10T12:00:00.000Z')
    expect(rotateToken(token(), { expiresAt: '2026-03-10' }, ctx)._unsafeUnwrapErr()).toEqual({
      type: 'invalid_expiry',
      message: 'Expiration date must be after 2026-03-10',
    })
    expect(rotateToken(token(), { expiresAt: '2026-03-09' }, ctx).isErr()).toBe(true)
    expect(rotateToken(token(), { expiresAt: '2026-03-11' }, ctx).isOk()).toBe(true)
  })

  it('today is the UTC day: 23:59:59.999 and 00:00:00.000 UTC fall on different days', () => {
    expect(
      rotateToken(token(), { expiresAt: '2026-03-11' }, mintContext('2026-03-10T23:59:59.999Z')).isOk(),
    ).toBe(true)
    expect(
      rotateToken(token(), { expiresAt: '2026-03-11' }, mintContext('2026-03-11T00:00:00.000Z')).isErr(),
    ).toBe(true)
  })

  it('without required expiry there is no upper bound', () => {
    const ctx = mintContext('2026-03-10T00:00:00.000Z', {
      expiry: { requireExpiry: false, maxLifetimeDays: 365 },
    })
    expect(rotateToken(token(), { expiresAt: '2099-01-01' }, ctx).isOk()).toBe(true)
  })

  it('a revoked token is refused before its expiry is looked at', () => {
    const result = rotateToken(
      token({ revoked: true }),
      { expiresAt: '1999-01-01' },
      mintContext('2026-03-10'),
    )
    expect(result._unsafeUnwrapErr().type).toBe('already_revoked')
  })
})
