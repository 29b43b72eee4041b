import { describe, expect, it } from 'vitest'
import type { Token } from '../../src/domain/token.js'
import { applyListQuery } from '../../src/query/apply.js'
import { at, token } from './token-fixture.js'

const NOW = at('2026-06-15T12:00:00.000Z')

function five(): Token[] {
  return [
    token({ id: 4, name: 'deploy-d', userId: 2 }),
    token({ id: 1, name: 'deploy-a', userId: 2 }),
    token({ id: 5, name: 'other', userId: 2 }),
    token({ id: 3, name: 'deploy-c', userId: 3 }),
    token({ id: 2, name: 'deploy-b', userId: 2, revoked: true }),
  ]
}

describe('applyListQuery', () => {
  it('filters, orders by id by default, and counts every match in total', () => {
    const result = applyListQuery(five(), {
      filter: { userId: 2, search: 'deploy' },
      sort: 'id_asc',
      page: { page: 1, perPage: 20 },
      now: NOW,
    })
    expect(result.items.map((t) => t.id)).toEqual([1, 2, 4])
    expect(result.total).toBe(3)
  })

  it('returns only the requested page, while total still counts all matches', () => {
    const query = { filter: {}, sort: 'name_desc', now: NOW } as const
    const page1 = applyListQuery(five(), { ...query, page: { page: 1, perPage: 2 } })
    const page3 = applyListQuery(five(), { ...query, page: { page: 3, perPage: 2 } })
    expect(page1).toMatchObject({ total: 5 })
    expect(page1.items.map((t) => t.name)).toEqual(['other', 'deploy-d'])
    expect(page3.items.map((t) => t.name)).toEqual(['deploy-a'])
  })

  it('a page past the last is empty but reports the total', () => {
    const result = applyListQuery(five(), {
      filter: {},
      sort: 'id_asc',
      page: { page: 9, perPage: 2 },
      now: NOW,
    })
    expect(result).toEqual({ items: [], total: 5 })
  })

  it('state is evaluated at query.now', () => {
    const tokens = [token({ id: 1, expiresAt: '2026-06-16' }), token({ id: 2, expiresAt: '2026-06-15' })]
    const active = (now: Date) =>
      applyListQuery(tokens, {
        filter: { state: 'active' },
        sort: 'id_asc',
        page: { page: 1, perPage: 20 },
        now,
      }).items.map((t) => t.id)
    expect(active(at('2026-06-14T23:59:59.999Z'))).toEqual([1, 2])
    expect(active(at('2026-06-15T00:00:00.000Z'))).toEqual([1])
  })

  it('accepts any iterable, such as a Map’s values, and leaves the source untouched', () => {
    const byId = new Map(five().map((t) => [t.id, t]))
    const before = [...byId.keys()]
    const result = applyListQuery(byId.values(), {
      filter: {},
      sort: 'id_desc',
      page: { page: 1, perPage: 3 },
      now: NOW,
    })
    expect(result.items.map((t) => t.id)).toEqual([5, 4, 3])
    expect([...byId.keys()]).toEqual(before)
  })
})
