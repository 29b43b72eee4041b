import { expect } from 'vitest'
import type { CalendarDate } from '../../domain/calendar.js'
import type { Token } from '../../domain/token.js'
import type { TokenStore } from '../../store/token-store.js'
import { type ConformanceContext, NOW, seeder } from './context.js'
import { okValue } from './results.js'
import { RACERS } from './rotation.js'

const day = (value: string): CalendarDate => value as CalendarDate
// NOW is 2026-06-15T12:00Z: a token expiring on 2026-06-15 is expired, one expiring 2026-06-16 active.
const EXPIRED_TODAY = day('2026-06-15')
const EXPIRES_TOMORROW = day('2026-06-16')

async function current(store: TokenStore, tokens: readonly Token[]): Promise<(Token | null)[]> {
  return Promise.all(tokens.map(async (t) => okValue(store.findById(t.id))))
}

const byId = (tokens: readonly Token[]): Token[] => [...tokens].sort((a, b) => a.id - b.id)

/**
 * Conformance tests of `revoke` (with its race contract) and `revokeDescendants` (reuse detection).
 */
export function describeRevocation(ctx: ConformanceContext): void {
  ctx.group('revoke', () => {
    ctx.test('revoke reports revoked, then already_revoked, and missing for an unknown id', async (store) => {
      const seed = seeder(store)
      const token = await seed.insert()
      const other = await seed.insert()
      expect(await okValue(store.revoke(token.id))).toBe('revoked')
      expect(await okValue(store.findById(token.id))).toEqual({ ...token, revoked: true })
      expect(await okValue(store.revoke(token.id))).toBe('already_revoked')
      expect(await okValue(store.revoke(other.id + 1000))).toBe('missing')
      expect(await okValue(store.findById(other.id))).toEqual(other)
    })

    ctx.test(
      `of ${RACERS} concurrent revocations of one token exactly one reports revoked`,
      async (store) => {
        const token = await seeder(store).insert()
        const outcomes = await Promise.all(
          Array.from({ length: RACERS }, async () => okValue(store.revoke(token.id))),
        )
        expect(outcomes.filter((o) => o === 'revoked')).toHaveLength(1)
        expect(outcomes.filter((o) => o === 'already_revoked')).toHaveLength(RACERS - 1)
        expect(await okValue(store.findById(token.id))).toEqual({ ...token, revoked: true })
      },
    )
  })

  ctx.group('revokeDescendants', () => {
    ctx.test('revokeDescendants revokes exactly the later generations active at now', async (store) => {
      const seed = seeder(store)
      // Four generations g1 -> g2 -> g3 -> g4; g1 is presented again. g3 expired today (and was never
      // revoked): it stays as it is, and the walk still reaches g4 through it.
      const g1 = await seed.insert({ revoked: true })
      const family = { familyId: g1.id }
      const g2 = await seed.insert({ ...family, previousId: g1.id, expiresAt: day('2026-07-01') })
      const g3 = await seed.insert({ ...family, previousId: g2.id, expiresAt: EXPIRED_TODAY })
      const g4 = await seed.insert({ ...family, previousId: g3.id, expiresAt: EXPIRES_TOMORROW })
      const sameUser = await seed.insert({ name: 'another family' })
      const otherUser = await seed.insert({ userId: 2, name: 'another user' })

      const revoked = await okValue(store.revokeDescendants(g1.id, NOW))
      expect(byId(revoked)).toEqual([
        { ...g2, revoked: true },
        { ...g4, revoked: true },
      ])
      expect(await current(store, [g1, g2, g3, g4, sameUser, otherUser])).toEqual([
        g1,
        { ...g2, revoked: true },
        g3,
        { ...g4, revoked: true },
        sameUser,
        otherUser,
      ])
    })

    ctx.test(
      'revokeDescendants leaves earlier generations and already revoked ones untouched',
      async (store) => {
        const seed = seeder(store)
        // g1 still active (as data imported from elsewhere may be); g2 is presented; g3 already revoked.
        const g1 = await seed.insert({ expiresAt: EXPIRES_TOMORROW })
        const family = { familyId: g1.id }
        const g2 = await seed.insert({ ...family, previousId: g1.id, revoked: true })
        const g3 = await seed.insert({ ...family, previousId: g2.id, revoked: true })
        const g4 = await seed.insert({ ...family, previousId: g3.id })
        const revoked = await okValue(store.revokeDescendants(g2.id, NOW))
        expect(revoked).toEqual([{ ...g4, revoked: true }])
        expect(await current(store, [g1, g2, g3, g4])).toEqual([g1, g2, g3, { ...g4, revoked: true }])
      },
    )

    ctx.test('revokeDescendants never crosses into other families', async (store) => {
      const seed = seeder(store)
      const a1 = await seed.insert({ revoked: true })
      const a2 = await seed.insert({ familyId: a1.id, previousId: a1.id })
      const b1 = await seed.insert({ revoked: true })
      const b2 = await seed.insert({ familyId: b1.id, previousId: b1.id })
      const c1 = await seed.insert({ userId: 2, revoked: true })
      const c2 = await seed.insert({ userId: 2, familyId: c1.id, previousId: c1.id })
      expect(await okValue(store.revokeDescendants(a1.id, NOW))).toEqual([{ ...a2, revoked: true }])
      expect(await current(store, [b1, b2, c1, c2])).toEqual([b1, b2, c1, c2])
    })

    ctx.test(
      'revokeDescendants of the newest generation or of an unknown id revokes nothing',
      async (store) => {
        const seed = seeder(store)
        const g1 = await seed.insert({ revoked: true })
        const g2 = await seed.insert({ familyId: g1.id, previousId: g1.id })
        expect(await okValue(store.revokeDescendants(g2.id, NOW))).toEqual([])
        expect(await okValue(store.revokeDescendants(g2.id + 1000, NOW))).toEqual([])
        expect(await current(store, [g1, g2])).toEqual([g1, g2])
      },
    )

    ctx.test('revokeDescendants a second time revokes nothing more', async (store) => {
      const seed = seeder(store)
      const g1 = await seed.insert({ revoked: true })
      const g2 = await seed.insert({ familyId: g1.id, previousId: g1.id })
      expect(await okValue(store.revokeDescendants(g1.id, NOW))).toEqual([{ ...g2, revoked: true }])
      expect(await okValue(store.revokeDescendants(g1.id, NOW))).toEqual([])
      expect(await okValue(store.findById(g2.id))).toEqual({ ...g2, revoked: true })
    })
  })
}
