import { describe, expect, it } from 'vitest'
import { CREATION_EXPIRY, type ExpiryRule, ROTATION_EXPIRY, resolveExpiry } from '../../src/domain/expiry.js'

const NOW = new Date('2026-01-28T10:00:00.000Z')
const REQUIRED = { requireExpiry: true, maxLifetimeDays: 365 }
const SEEDED: ExpiryRule = { absent: 'max_lifetime', past: 'inactive', bounded: false, never: true }

describe('expiry rules', () => {
  it('an absent day: the maximum lifetime for creation, the rotation default (capped) for rotation, never when not required', () => {
    expect(resolveExpiry(undefined, NOW, REQUIRED, CREATION_EXPIRY)._unsafeUnwrap()).toBe('2027-01-28')
    expect(resolveExpiry(undefined, NOW, REQUIRED, ROTATION_EXPIRY)._unsafeUnwrap()).toBe('2026-02-04')
    expect(
      resolveExpiry(
        undefined,
        NOW,
        { ...REQUIRED, rotationDefaultDays: 30 },
        ROTATION_EXPIRY,
      )._unsafeUnwrap(),
    ).toBe('2026-02-27')
    expect(
      resolveExpiry(undefined, NOW, { ...REQUIRED, maxLifetimeDays: 3 }, ROTATION_EXPIRY)._unsafeUnwrap(),
    ).toBe('2026-01-31')
    for (const rule of [CREATION_EXPIRY, ROTATION_EXPIRY, SEEDED]) {
      expect(
        resolveExpiry(undefined, NOW, { ...REQUIRED, requireExpiry: false }, rule)._unsafeUnwrap(),
      ).toBeNull()
    }
  })

  it('today or earlier: a token born inactive at creation, refused at rotation', () => {
    expect(resolveExpiry('2026-01-28', NOW, REQUIRED, CREATION_EXPIRY)._unsafeUnwrap()).toBe('2026-01-28')
    expect(resolveExpiry('2026-01-28', NOW, REQUIRED, ROTATION_EXPIRY)._unsafeUnwrapErr()).toEqual({
      type: 'invalid_expiry',
      message: 'Expiration date must be after 2026-01-28',
    })
  })

  it('beyond the maximum lifetime: refused by a bounded rule when expiry is required, taken otherwise', () => {
    const refused = { type: 'invalid_expiry', message: 'Expiration date must be before 2027-01-28' }
    expect(resolveExpiry('2027-01-29', NOW, REQUIRED, CREATION_EXPIRY)._unsafeUnwrapErr()).toEqual(refused)
    expect(resolveExpiry('2027-01-29', NOW, REQUIRED, ROTATION_EXPIRY)._unsafeUnwrapErr()).toEqual(refused)
    expect(resolveExpiry('2027-01-28', NOW, REQUIRED, CREATION_EXPIRY)._unsafeUnwrap()).toBe('2027-01-28')
    expect(resolveExpiry('2040-01-01', NOW, REQUIRED, SEEDED)._unsafeUnwrap()).toBe('2040-01-01')
    expect(
      resolveExpiry(
        '2040-01-01',
        NOW,
        { ...REQUIRED, requireExpiry: false },
        CREATION_EXPIRY,
      )._unsafeUnwrap(),
    ).toBe('2040-01-01')
  })

  it('an explicit null is never only where the rule says so; elsewhere it is the default', () => {
    expect(resolveExpiry(null, NOW, REQUIRED, SEEDED)._unsafeUnwrap()).toBeNull()
    expect(resolveExpiry(null, NOW, REQUIRED, CREATION_EXPIRY)._unsafeUnwrap()).toBe('2027-01-28')
  })
})
