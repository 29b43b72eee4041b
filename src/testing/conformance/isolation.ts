import { expect } from 'vitest'
import type { CalendarDate } from '../../domain/calendar.js'
import type { SortKey, TokenFilter } from '../../query/filter.js'
import { type ConformanceContext, query, seeder } from './context.js'
import { okValue } from './results.js'

const USERS = [1, 2, 3] as const

/**
 * Conformance tests that one user's tokens never leak into another user's list, nor change with
 * another user's writes.
 */
export function describeIsolation(ctx: ConformanceContext): void {
  ctx.group('isolation between users', () => {
    ctx.test('a filter on one user never returns the tokens of another user', async (store) => {
      const seed = seeder(store)
      // Every user gets look-alike tokens, so only the userId can tell them apart.
      for (let i = 0; i < 4; i++) {
        for (const userId of USERS) {
          await seed.insert({
            userId,
            name: `deploy ${i}`,
            revoked: i === 1,
            impersonation: i === 2,
            expiresAt: i === 3 ? ('2026-01-01' as CalendarDate) : ('2027-01-01' as CalendarDate),
            lastUsedAt: i === 0 ? null : new Date('2026-05-01T00:00:00.000Z'),
          })
        }
      }
      const filters: TokenFilter[] = [
        {},
        { state: 'active' },
        { state: 'inactive' },
        { revoked: true },
        { excludeImpersonation: true },
        { search: 'deploy' },
        { lastUsedAfter: new Date('2026-01-01T00:00:00.000Z') },
        { expiresBefore: '2026-06-01' as CalendarDate },
      ]
      const sorts: SortKey[] = ['id_desc', 'name_asc', 'expires_desc', 'last_used_asc']
      for (const userId of USERS) {
        const all = await okValue(store.list(query({ userId })))
        expect(all.total).toBe(4)
        for (const filter of filters) {
          for (const sort of sorts) {
            for (const page of [1, 2]) {
              const result = await okValue(
                store.list(query({ ...filter, userId }, { sort, page, perPage: 2 })),
              )
              const leaked = result.items.filter((t) => t.userId !== userId)
              expect(leaked, JSON.stringify({ userId, filter, sort, page })).toEqual([])
            }
          }
        }
      }
    })

    ctx.test('writes to the tokens of one user leave those of other users untouched', async (store) => {
      const seed = seeder(store)
      const mine = await seed.insertAll([{ userId: 1 }, { userId: 1 }, { userId: 1 }])
      const theirs = await seed.insertAll([{ userId: 2 }, { userId: 2 }])
      const before = await okValue(store.list(query({ userId: 2 })))
      const [a, b, c] = mine.map((t) => t.id) as [number, number, number]
      await okValue(store.revoke(a))
      await okValue(store.touchLastUsed(b, new Date('2026-06-01T00:00:00.000Z'), 0, null))
      await okValue(
        store.rotate(c, seed.draft({ userId: 1, previousId: c, familyId: c, createdAt: new Date(0) })),
      )
      await okValue(store.revokeDescendants(c, new Date('2026-06-15T00:00:00.000Z')))
      expect(await okValue(store.list(query({ userId: 2 })))).toEqual(before)
      expect(before.items).toEqual(theirs)
    })
  })
}
