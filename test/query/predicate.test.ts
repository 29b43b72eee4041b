import { describe, expect, it } from 'vitest'
import type { TokenFilter } from '../../src/query/filter.js'
import { matchesFilter } from '../../src/query/predicate.js'
import { at, token } from './token-fixture.js'

const NOW = at('2026-06-15T12:00:00.000Z')

describe('matchesFilter: ownership', () => {
  it('an empty filter matches every token', () => {
    expect(matchesFilter(token({ revoked: true, impersonation: true }), {}, NOW)).toBe(true)
  })

  it('userId keeps only that user’s tokens', () => {
    expect(matchesFilter(token({ userId: 2 }), { userId: 2 }, NOW)).toBe(true)
    expect(matchesFilter(token({ userId: 3 }), { userId: 2 }, NOW)).toBe(false)
  })

  it('excludeImpersonation drops impersonation tokens only', () => {
    expect(matchesFilter(token({ impersonation: true }), { excludeImpersonation: true }, NOW)).toBe(false)
    expect(matchesFilter(token({ impersonation: false }), { excludeImpersonation: true }, NOW)).toBe(true)
  })

  it('excludeImpersonation false keeps impersonation tokens', () => {
    expect(matchesFilter(token({ impersonation: true }), { excludeImpersonation: false }, NOW)).toBe(true)
  })
})

describe('matchesFilter: created_* (inclusive)', () => {
  const bound = at('2026-03-01T10:00:00.000Z')

  it('createdAfter keeps a token created exactly at the bound, and later ones', () => {
    const filter: TokenFilter = { createdAfter: bound }
    expect(matchesFilter(token({ createdAt: at('2026-03-01T10:00:00.000Z') }), filter, NOW)).toBe(true)
    expect(matchesFilter(token({ createdAt: at('2026-03-01T10:00:00.001Z') }), filter, NOW)).toBe(true)
    expect(matchesFilter(token({ createdAt: at('2026-03-01T09:59:59.999Z') }), filter, NOW)).toBe(false)
  })

  it('createdBefore keeps a token created exactly at the bound, and earlier ones', () => {
    const filter: TokenFilter = { createdBefore: bound }
    expect(matchesFilter(token({ createdAt: at('2026-03-01T10:00:00.000Z') }), filter, NOW)).toBe(true)
    expect(matchesFilter(token({ createdAt: at('2026-03-01T09:59:59.999Z') }), filter, NOW)).toBe(true)
    expect(matchesFilter(token({ createdAt: at('2026-03-01T10:00:00.001Z') }), filter, NOW)).toBe(false)
  })

  it('createdAfter and createdBefore at the same instant keep exactly that instant', () => {
    const filter: TokenFilter = { createdAfter: bound, createdBefore: bound }
    expect(matchesFilter(token({ createdAt: bound }), filter, NOW)).toBe(true)
  })
})

describe('matchesFilter: last_used_* (inclusive, never-used tokens excluded)', () => {
  const bound = at('2026-03-01T10:00:00.000Z')

  it('lastUsedAfter keeps a token used exactly at the bound, not one used just before', () => {
    const filter: TokenFilter = { lastUsedAfter: bound }
    expect(matchesFilter(token({ lastUsedAt: at('2026-03-01T10:00:00.000Z') }), filter, NOW)).toBe(true)
    expect(matchesFilter(token({ lastUsedAt: at('2026-03-01T09:59:59.999Z') }), filter, NOW)).toBe(false)
  })

  it('lastUsedBefore keeps a token used exactly at the bound, not one used just after', () => {
    const filter: TokenFilter = { lastUsedBefore: bound }
    expect(matchesFilter(token({ lastUsedAt: at('2026-03-01T10:00:00.000Z') }), filter, NOW)).toBe(true)
    expect(matchesFilter(token({ lastUsedAt: at('2026-03-01T10:00:00.001Z') }), filter, NOW)).toBe(false)
  })

  it('a never-used token (null lastUsedAt) matches neither lastUsedAfter nor lastUsedBefore', () => {
    expect(
      matchesFilter(token({ lastUsedAt: null }), { lastUsedAfter: at('1970-01-01T00:00:00Z') }, NOW),
    ).toBe(false)
    expect(
      matchesFilter(token({ lastUsedAt: null }), { lastUsedBefore: at('9999-12-31T23:59:59Z') }, NOW),
    ).toBe(false)
  })
})

describe('matchesFilter: expires_* (after inclusive, before strict, no-expiry tokens excluded)', () => {
  it('expiresAfter keeps a token expiring on the bound day and later', () => {
    expect(matchesFilter(token({ expiresAt: '2030-01-01' }), { expiresAfter: '2030-01-01' }, NOW)).toBe(true)
    expect(matchesFilter(token({ expiresAt: '2030-01-02' }), { expiresAfter: '2030-01-01' }, NOW)).toBe(true)
    expect(matchesFilter(token({ expiresAt: '2029-12-31' }), { expiresAfter: '2030-01-01' }, NOW)).toBe(false)
  })

  it('expiresBefore excludes a token expiring on the bound day, keeps the day before', () => {
    expect(matchesFilter(token({ expiresAt: '2030-01-01' }), { expiresBefore: '2030-01-01' }, NOW)).toBe(
      false,
    )
    expect(matchesFilter(token({ expiresAt: '2029-12-31' }), { expiresBefore: '2030-01-01' }, NOW)).toBe(true)
  })

  it('days compare as dates across month and year boundaries', () => {
    expect(matchesFilter(token({ expiresAt: '2029-12-31' }), { expiresAfter: '2029-02-28' }, NOW)).toBe(true)
    expect(matchesFilter(token({ expiresAt: '2029-10-01' }), { expiresBefore: '2029-09-30' }, NOW)).toBe(
      false,
    )
  })

  it('a token that never expires (null expiresAt) matches neither expiresAfter nor expiresBefore', () => {
    expect(matchesFilter(token({ expiresAt: null }), { expiresAfter: '1970-01-01' }, NOW)).toBe(false)
    expect(matchesFilter(token({ expiresAt: null }), { expiresBefore: '9999-12-31' }, NOW)).toBe(false)
  })
})

describe('matchesFilter: revoked', () => {
  it('revoked true keeps revoked tokens only, false non-revoked only', () => {
    expect(matchesFilter(token({ revoked: true }), { revoked: true }, NOW)).toBe(true)
    expect(matchesFilter(token({ revoked: false }), { revoked: true }, NOW)).toBe(false)
    expect(matchesFilter(token({ revoked: false }), { revoked: false }, NOW)).toBe(true)
    expect(matchesFilter(token({ revoked: true }), { revoked: false }, NOW)).toBe(false)
  })
})

describe('matchesFilter: state', () => {
  const expiring = () => token({ expiresAt: '2030-01-01', revoked: false })
  const lastMoment = at('2029-12-31T23:59:59.999Z')
  const expiryMoment = at('2030-01-01T00:00:00.000Z')

  it('at 23:59:59.999 UTC the day before expires_at the token is active, not inactive', () => {
    expect(matchesFilter(expiring(), { state: 'active' }, lastMoment)).toBe(true)
    expect(matchesFilter(expiring(), { state: 'inactive' }, lastMoment)).toBe(false)
  })

  it('from 00:00:00.000 UTC of the expires_at day the token is inactive, not active', () => {
    expect(matchesFilter(expiring(), { state: 'active' }, expiryMoment)).toBe(false)
    expect(matchesFilter(expiring(), { state: 'inactive' }, expiryMoment)).toBe(true)
  })

  it('a revoked token is inactive even though it has not expired', () => {
    const revoked = token({ revoked: true, expiresAt: null })
    expect(matchesFilter(revoked, { state: 'inactive' }, NOW)).toBe(true)
    expect(matchesFilter(revoked, { state: 'active' }, NOW)).toBe(false)
  })

  it('a token without expiry that is not revoked is active forever', () => {
    const forever = token({ revoked: false, expiresAt: null })
    expect(matchesFilter(forever, { state: 'active' }, at('9999-12-31T23:59:59.999Z'))).toBe(true)
  })

  it('state is evaluated at the given now, not at creation', () => {
    const t = token({ expiresAt: '2026-06-15' })
    expect(matchesFilter(t, { state: 'active' }, at('2026-06-14T12:00:00.000Z'))).toBe(true)
    expect(matchesFilter(t, { state: 'active' }, at('2026-06-15T12:00:00.000Z'))).toBe(false)
  })
})

describe('matchesFilter: search and combinations', () => {
  it('search uses the fuzzy name search', () => {
    expect(matchesFilter(token({ name: 'Deploy to prod' }), { search: 'prod deploy' }, NOW)).toBe(true)
    expect(matchesFilter(token({ name: 'test_2' }), { search: 'test_1' }, NOW)).toBe(false)
  })

  it('a blank search matches every token', () => {
    expect(matchesFilter(token({ name: 'x' }), { search: '  ' }, NOW)).toBe(true)
  })

  it('all present filters must hold together (AND)', () => {
    const filter: TokenFilter = { userId: 2, revoked: false, search: 'deploy' }
    expect(matchesFilter(token({ userId: 2, name: 'deploy' }), filter, NOW)).toBe(true)
    expect(matchesFilter(token({ userId: 2, name: 'deploy', revoked: true }), filter, NOW)).toBe(false)
    expect(matchesFilter(token({ userId: 3, name: 'deploy' }), filter, NOW)).toBe(false)
    expect(matchesFilter(token({ userId: 2, name: 'ci' }), filter, NOW)).toBe(false)
  })
})
