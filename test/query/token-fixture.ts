import type { CalendarDate } from '../../src/domain/calendar.js'
import type { Token } from '../../src/domain/token.js'

/** A fresh active token; each call builds a new object, fields overridable. */
export function token(overrides: Partial<Token> = {}): Token {
  const id = overrides.id ?? 1
  return {
    id,
    userId: 1,
    name: 'ci',
    description: null,
    scopes: ['api'],
    createdAt: new Date('2026-01-01T00:00:00.000Z'),
    lastUsedAt: null,
    expiresAt: '2027-01-01' as CalendarDate,
    revoked: false,
    impersonation: false,
    previousId: null,
    familyId: id,
    digest: `digest-${id}`,
    ...overrides,
  }
}

/** Shorthand for an instant in tests. */
export function at(iso: string): Date {
  return new Date(iso)
}
