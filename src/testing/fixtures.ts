import type { CalendarDate } from '../domain/calendar.js'
import type { Token, TokenDraft } from '../domain/token.js'
import type { UserId } from '../domain/user-id.js'
import type { User } from '../store/user.js'

/**
 * Builds token drafts with fixed, explicit defaults; each call takes the next digest of this builder
 * (`<prefix>-1`, `<prefix>-2`, …), so drafts never collide on the unique digest.
 *
 * @example
 * ```ts
 * import { draftFactory } from 'patkit/testing'
 * const draft = draftFactory()
 * await store.insert(draft({ userId: 2, name: 'ci' }))
 * ```
 */
export type DraftBuilder = (overrides?: Partial<TokenDraft>) => TokenDraft

/**
 * A fresh {@link DraftBuilder}. Defaults: user 1, name `token-N`, scope `api`, created
 * 2026-01-01T00:00:00.000Z, never used, expiring 2027-01-01, not revoked, no impersonation, first of
 * its family. No wall clock and no randomness: a test gets the same drafts on every run.
 *
 * @example
 * ```ts
 * import { draftFactory } from 'patkit/testing'
 * const draft = draftFactory('alice')
 * draft().digest // 'alice-digest-1'
 * draft({ name: 'deploy' }).digest // 'alice-digest-2'
 * ```
 */
export function draftFactory(prefix = 'conformance'): DraftBuilder {
  let count = 0
  return (overrides = {}) => {
    count += 1
    return {
      userId: 1,
      name: `token-${count}`,
      description: null,
      scopes: ['api'],
      createdAt: new Date('2026-01-01T00:00:00.000Z'),
      lastUsedAt: null,
      expiresAt: '2027-01-01' as CalendarDate,
      revoked: false,
      impersonation: false,
      previousId: null,
      familyId: null,
      digest: `${prefix}-digest-${count}`,
      ...overrides,
    }
  }
}

/**
 * A complete token with a chosen id, for `importToken`: first of its own family, digest
 * `imported-digest-<id>`, the other fields as {@link draftFactory}'s defaults.
 *
 * @example
 * ```ts
 * import { tokenFixture } from 'patkit/testing'
 * await store.importToken(tokenFixture(1000, { userId: 2, revoked: true }))
 * ```
 */
export function tokenFixture(id: number, overrides: Partial<Token> = {}): Token {
  return {
    ...draftFactory()({ name: `imported-${id}`, digest: `imported-digest-${id}` }),
    id,
    familyId: id,
    ...overrides,
  }
}

/**
 * A user with a chosen id: username `user-<id>`, neither admin nor blocked unless overridden.
 *
 * @example
 * ```ts
 * import { userFixture } from 'patkit/testing'
 * await store.putUser(userFixture(1, { admin: true }))
 * ```
 */
export function userFixture(id: UserId, overrides: Partial<User> = {}): User {
  return { id, username: `user-${id}`, admin: false, blocked: false, ...overrides }
}
