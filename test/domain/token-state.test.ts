import { describe, expect, it } from 'vitest'
import { isActive, isExpired } from '../../src/domain/token.js'
import { token } from '../support/domain-fixtures.js'

describe('token state', () => {
  it('a token is not expired at 23:59:59.999 UTC the day before its expires_at', () => {
    const t = token({ expiresAt: '2030-01-01' })
    expect(isExpired(t, new Date('2029-12-31T23:59:59.999Z'))).toBe(false)
    expect(isActive(t, new Date('2029-12-31T23:59:59.999Z'))).toBe(true)
  })

  it('a token is expired from 00:00:00.000 UTC of its expires_at day', () => {
    const t = token({ expiresAt: '2030-01-01' })
    expect(isExpired(t, new Date('2030-01-01T00:00:00.000Z'))).toBe(true)
    expect(isActive(t, new Date('2030-01-01T00:00:00.000Z'))).toBe(false)
  })

  it('a token without expires_at never expires', () => {
    expect(isExpired(token({ expiresAt: null }), new Date('9999-12-31T23:59:59.999Z'))).toBe(false)
  })

  it('a revoked token is not active even before it expires', () => {
    const t = token({ revoked: true, expiresAt: null })
    expect(isActive(t, new Date('2026-01-01T00:00:00.000Z'))).toBe(false)
    expect(isExpired(t, new Date('2026-01-01T00:00:00.000Z'))).toBe(false)
  })
})
