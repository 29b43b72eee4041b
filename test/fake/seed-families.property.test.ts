import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Token } from '../../src/domain/token.js'
import { control, fakeOver, snapshotOf } from './support/data-fake.js'

// Whatever tokens a restore is given, it either refuses them and the data stays as it was, or the
// data it leaves has no forked family: at most one active token per family, at most one successor per
// token, and a successor of the same user and family as its predecessor.

const users = [
  { id: 2, username: 'alice' },
  { id: 3, username: 'bob' },
]

// Mostly plausible families (a previous_id naming an earlier token of the list), with every kind of
// mistake mixed in: any id (itself, a later token, none), another user's token, an active one.
const seedTokens = fc
  .uniqueArray(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 6 })
  .chain((ids) =>
    fc.tuple(
      ...ids.map((id, index) =>
        fc.record({
          id: fc.constant(id),
          user_id: fc.constantFrom(2, 2, 2, 3),
          revoked: fc.boolean(),
          previous_id: fc.oneof(
            { arbitrary: fc.constant(null), weight: 2 },
            {
              arbitrary: index === 0 ? fc.constant(null) : fc.constantFrom(...ids.slice(0, index)),
              weight: 3,
            },
            { arbitrary: fc.integer({ min: 1, max: 9 }), weight: 1 },
          ),
        }),
      ),
    ),
  )

function expectNoFork(tokens: readonly Token[]) {
  const byId = new Map(tokens.map((token) => [token.id, token]))
  const activeByFamily = new Map<number, number>()
  const successors = new Map<number, number>()
  for (const token of tokens) {
    if (!token.revoked) activeByFamily.set(token.familyId, (activeByFamily.get(token.familyId) ?? 0) + 1)
    if (token.previousId === null) continue
    successors.set(token.previousId, (successors.get(token.previousId) ?? 0) + 1)
    const predecessor = byId.get(token.previousId)
    expect(predecessor).toMatchObject({ userId: token.userId, familyId: token.familyId, revoked: true })
  }
  for (const count of activeByFamily.values()) expect(count).toBeLessThanOrEqual(1)
  for (const count of successors.values()) expect(count).toBe(1)
}

describe('restoring any tokens never forks a family', () => {
  it('refused: the data as it was; accepted: one active token per family, one successor per token', async () => {
    const fake = await fakeOver()
    // Both outcomes must occur, accepted ones with a family of two or more, or the property says little.
    let families = 0
    let refused = 0
    await fc.assert(
      fc.asyncProperty(seedTokens, async (tokens) => {
        const before = await snapshotOf(fake)
        const body = {
          users,
          tokens: tokens.map((t) => ({
            ...t,
            name: `token-${t.id}`,
            scopes: ['api'],
            token: `glpat-property-secret-${t.id}`,
            expires_at: '2027-01-01',
          })),
        }
        const answer = await control(fake, 'PUT', '/state', body)
        if (answer.status === 400) {
          refused++
          expect(await snapshotOf(fake)).toEqual(before)
          return
        }
        expect(answer.status).toBe(200)
        const listed = await fake.store.list({
          filter: {},
          sort: 'id_asc',
          page: { page: 1, perPage: 100 },
          now: fake.authority.now(),
        })
        const stored = listed._unsafeUnwrap().items
        expect(stored).toHaveLength(tokens.length)
        expectNoFork(stored)
        if (stored.some((token) => token.previousId !== null)) families++
      }),
      { numRuns: 150 },
    )
    expect(families).toBeGreaterThan(0)
    expect(refused).toBeGreaterThan(0)
    // 1.7 s alone, over 5 s in a loaded full run: a budget, not a timing assertion.
  }, 60_000)
})
