import { expect } from 'vitest'
import type { CalendarDate } from '../../domain/calendar.js'
import { type ConformanceContext, query, seeder } from './context.js'
import { contract } from './contracts.js'
import { okValue } from './results.js'

const seven = Array.from({ length: 7 }, (_, i) => ({ name: `t${i + 1}` }))

/**
 * Conformance tests of list pagination: total, full pages, the last partial page, pages out of range.
 */
export function describePagination(ctx: ConformanceContext): void {
  ctx.group('list pagination', () => {
    ctx.test('list pages slice the ordered matches and total counts every match', async (store) => {
      await seeder(store).insertAll(seven)
      const page = async (n: number) => okValue(store.list(query({}, { page: n, perPage: 3 })))
      expect(await page(1)).toMatchObject({ total: 7 })
      expect((await page(1)).items.map((t) => t.name)).toEqual(['t1', 't2', 't3'])
      expect((await page(2)).items.map((t) => t.name)).toEqual(['t4', 't5', 't6'])
      expect((await page(2)).total).toBe(7)
    })

    ctx.test('list last page is partial', async (store) => {
      await seeder(store).insertAll(seven)
      const last = await okValue(store.list(query({}, { page: 3, perPage: 3 })))
      expect(
        last.items.map((t) => t.name),
        `list page 3 of 3 ${contract('list-pages')}`,
      ).toEqual(['t7'])
      expect(last.total, `list page 3 of 3: the total ${contract('list-pages')}`).toBe(7)
      const exact = await okValue(store.list(query({}, { page: 1, perPage: 7 })))
      expect(exact.items).toHaveLength(7)
    })

    ctx.test('list page past the end is empty and still reports the total', async (store) => {
      await seeder(store).insertAll(seven)
      for (const page of [4, 5, 1000]) {
        expect(
          await okValue(store.list(query({}, { page, perPage: 3 }))),
          `list page ${page} of 3 ${contract('list-pages')}`,
        ).toEqual({
          items: [],
          total: 7,
        })
      }
    })

    ctx.test("a user's own list pages, sorts and counts like any filtered list", async (store) => {
      await seeder(store).insertAll([
        ...Array.from({ length: 7 }, (_, i) => ({
          name: `u${(i * 5) % 7}`,
          userId: 4,
          impersonation: i % 3 === 1,
          expiresAt: i % 2 === 0 ? null : (`2026-1${i % 3}-1${i}` as CalendarDate),
        })),
        { name: 'other', userId: 6 },
      ])
      // `createdAfter` at the epoch matches every token: the same list asked in a second shape.
      const everything = new Date(0)
      for (const sort of ['id_asc', 'id_desc', 'name_asc', 'expires_asc', 'expires_desc'] as const) {
        for (const excludeImpersonation of [false, true]) {
          const filter = excludeImpersonation ? { userId: 4, excludeImpersonation } : { userId: 4 }
          const total = excludeImpersonation ? 5 : 7
          for (const page of [1, 2, 3, 4]) {
            const label = `${sort}, excludeImpersonation ${excludeImpersonation}, page ${page}`
            const own = await okValue(store.list(query(filter, { sort, page, perPage: 2 })))
            const same = await okValue(
              store.list(query({ ...filter, createdAfter: everything }, { sort, page, perPage: 2 })),
            )
            expect(own, label).toEqual(same)
            expect(own.total, label).toBe(total)
          }
        }
      }
      expect(await okValue(store.list(query({ userId: 5 })))).toEqual({ items: [], total: 0 })
      expect(await okValue(store.list(query({ userId: 6 }, { page: 2, perPage: 1 })))).toEqual({
        items: [],
        total: 1,
      })
    })

    ctx.test('list paginates after filtering and sorting', async (store) => {
      await seeder(store).insertAll(
        Array.from({ length: 9 }, (_, i) => ({
          name: `t${i + 1}`,
          revoked: i % 3 === 0,
          expiresAt: `2026-1${i % 3}-0${i + 1}` as CalendarDate,
        })),
      )
      // Unrevoked: t2 t3 t5 t6 t8 t9; by expiry descending: t9 (12-09) t6 (12-06) t3 (12-03) t8 (11-08)
      // t5 (11-05) t2 (11-02).
      const filtered = async (page: number) =>
        okValue(store.list(query({ revoked: false }, { sort: 'expires_desc', page, perPage: 4 })))
      expect((await filtered(1)).items.map((t) => t.name)).toEqual(['t9', 't6', 't3', 't8'])
      expect(await filtered(2)).toMatchObject({ total: 6 })
      expect((await filtered(2)).items.map((t) => t.name)).toEqual(['t5', 't2'])
    })
  })
}
