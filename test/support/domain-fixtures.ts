import type { MintContext } from '../../src/domain/context.js'
import { seededRandom } from '../../src/domain/random.js'
import { createDigester } from '../../src/domain/secret.js'
import type { Token, TokenDraft } from '../../src/domain/token.js'
import { tokenFixture } from '../../src/testing/fixtures.js'

/** A mint context at a fixed instant with a seeded random source; each test builds its own. */
export function mintContext(now: string | Date, overrides: Partial<MintContext> = {}): MintContext {
  return {
    now: typeof now === 'string' ? new Date(now) : now,
    random: seededRandom(7),
    prefix: 'glpat-',
    digest: createDigester('test-pepper'),
    expiry: { requireExpiry: true, maxLifetimeDays: 365 },
    ...overrides,
  }
}

/** Stores a draft the way a store would: assigns the id and, for a first generation, the family. */
export function stored(draft: TokenDraft, id: number): Token {
  return { ...draft, id, familyId: draft.familyId ?? id }
}

/**
 * A plain active token: {@link tokenFixture}'s defaults with id 1, name `ci` and digest `digest-1`.
 * Overriding `id` keeps family 1 and digest `digest-1` (unlike test/query's `token`).
 */
export function token(overrides: Partial<Token> = {}): Token {
  return tokenFixture(1, { name: 'ci', digest: 'digest-1', ...overrides })
}
