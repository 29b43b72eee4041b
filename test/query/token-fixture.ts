import type { Token } from '../../src/domain/token.js'
import { tokenFixture } from '../../src/testing/fixtures.js'

/**
 * A fresh active token: {@link tokenFixture}'s defaults with name `ci`; the id (1 unless overridden)
 * also sets the family and the digest `digest-<id>`, unless those are overridden too.
 */
export function token(overrides: Partial<Token> = {}): Token {
  const id = overrides.id ?? 1
  return tokenFixture(id, { name: 'ci', digest: `digest-${id}`, ...overrides })
}

/** Shorthand for an instant in tests. */
export function at(iso: string): Date {
  return new Date(iso)
}
