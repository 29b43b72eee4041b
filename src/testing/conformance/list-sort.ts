import { expect } from 'vitest'
import type { CalendarDate } from '../../domain/calendar.js'
import type { Token, TokenDraft } from '../../domain/token.js'
import type { SortKey } from '../../query/filter.js'
import type { TokenStore } from '../../store/token-store.js'
import { type ConformanceContext, query, seeder } from './context.js'
import { okValue } from './results.js'

const at = (iso: string): Date => new Date(iso)
const day = (value: string): CalendarDate => value as CalendarDate

async function ids(store: TokenStore, sort: SortKey): Promise<number[]> {
  const { items } = await okValue(store.list(query({}, { sort })))
  return items.map((t) => t.id)
}

/** Inserts the drafts in order and returns, for each, its id: `order(t, [2, 0, 1])` names positions. */
async function insert(store: TokenStore, drafts: readonly Partial<TokenDraft>[]) {
  const tokens = await seeder(store).insertAll(drafts)
  return (...positions: number[]): number[] => positions.map((p) => (tokens[p] as Token).id)
}

/**
 * Conformance tests of every sort key, with ties (broken by id in the key's direction) and nulls (last
 * ascending, first descending, as in PostgreSQL).
 */
export function describeListSort(ctx: ConformanceContext): void {
  ctx.group('list sort', () => {
    ctx.test('list sort id_asc and id_desc order by id', async (store) => {
      const order = await insert(store, [{}, {}, {}])
      expect(await ids(store, 'id_asc')).toEqual(order(0, 1, 2))
      expect(await ids(store, 'id_desc')).toEqual(order(2, 1, 0))
    })

    ctx.test('list sort name_asc and name_desc break ties by id in the same direction', async (store) => {
      const order = await insert(store, [
        { name: 'beta' },
        { name: 'alpha' },
        { name: 'beta' },
        { name: 'gamma' },
      ])
      expect(await ids(store, 'name_asc')).toEqual(order(1, 0, 2, 3))
      expect(await ids(store, 'name_desc')).toEqual(order(3, 2, 0, 1))
    })

    ctx.test('list sort by creation time breaks ties by id in the same direction', async (store) => {
      const order = await insert(store, [
        { createdAt: at('2026-02-01T00:00:00.000Z') },
        { createdAt: at('2026-01-01T00:00:00.001Z') },
        { createdAt: at('2026-02-01T00:00:00.000Z') },
        { createdAt: at('2026-01-01T00:00:00.000Z') },
      ])
      for (const sort of ['created_asc', 'created_at_asc'] as const) {
        expect(await ids(store, sort), sort).toEqual(order(3, 1, 0, 2))
      }
      for (const sort of ['created_desc', 'created_at_desc', 'created_date'] as const) {
        expect(await ids(store, sort), sort).toEqual(order(2, 0, 1, 3))
      }
    })

    ctx.test(
      'list sort expires_asc puts never-expiring tokens last and expires_desc first',
      async (store) => {
        const order = await insert(store, [
          { expiresAt: day('2026-09-01') },
          { expiresAt: null },
          { expiresAt: day('2026-08-01') },
          { expiresAt: day('2026-09-01') },
          { expiresAt: null },
        ])
        expect(await ids(store, 'expires_asc')).toEqual(order(2, 0, 3, 1, 4))
        expect(await ids(store, 'expires_desc')).toEqual(order(4, 1, 3, 0, 2))
      },
    )

    ctx.test(
      'list sort last_used_asc puts never-used tokens last and last_used_desc first',
      async (store) => {
        const order = await insert(store, [
          { lastUsedAt: at('2026-05-01T00:00:00.000Z') },
          { lastUsedAt: null },
          { lastUsedAt: at('2026-04-30T23:59:59.999Z') },
          { lastUsedAt: at('2026-05-01T00:00:00.000Z') },
          { lastUsedAt: null },
        ])
        expect(await ids(store, 'last_used_asc')).toEqual(order(2, 0, 3, 1, 4))
        expect(await ids(store, 'last_used_desc')).toEqual(order(4, 1, 3, 0, 2))
      },
    )
  })
}
