import { describe, expect, it } from 'vitest'
import type { Token } from '../../src/domain/token.js'
import { SORT_KEYS, type SortKey } from '../../src/query/filter.js'
import { compareTokens, DEFAULT_SORT, isSortKey } from '../../src/query/sort.js'
import { at, token } from './token-fixture.js'

function order(sort: SortKey, tokens: Token[]): number[] {
  return [...tokens].sort(compareTokens(sort)).map((t) => t.id)
}

// Listed in scrambled id order so that no result is an accident of the input order.
function byName(): Token[] {
  return [
    token({ id: 3, name: 'beta' }),
    token({ id: 1, name: 'beta' }),
    token({ id: 4, name: 'Alpha' }),
    token({ id: 2, name: 'alpha' }),
    token({ id: 5, name: '😀' }),
    token({ id: 6, name: '\uFFFD' }),
  ]
}

function byCreation(): Token[] {
  return [
    token({ id: 2, createdAt: at('2026-01-02T00:00:00.000Z') }),
    token({ id: 4, createdAt: at('2026-01-01T00:00:00.000Z') }),
    token({ id: 1, createdAt: at('2026-01-02T00:00:00.000Z') }),
    token({ id: 3, createdAt: at('2026-01-03T00:00:00.000Z') }),
  ]
}

function byExpiry(): Token[] {
  return [
    token({ id: 5, expiresAt: null }),
    token({ id: 2, expiresAt: '2030-01-02' }),
    token({ id: 4, expiresAt: '2029-12-31' }),
    token({ id: 1, expiresAt: '2030-01-02' }),
    token({ id: 3, expiresAt: null }),
  ]
}

function byLastUse(): Token[] {
  return [
    token({ id: 5, lastUsedAt: null }),
    token({ id: 2, lastUsedAt: at('2026-02-01T10:00:00.000Z') }),
    token({ id: 4, lastUsedAt: at('2026-02-01T09:59:59.999Z') }),
    token({ id: 1, lastUsedAt: at('2026-02-01T10:00:00.000Z') }),
    token({ id: 3, lastUsedAt: null }),
  ]
}

describe('compareTokens', () => {
  it('id_asc and id_desc order by id', () => {
    const tokens = [token({ id: 2 }), token({ id: 3 }), token({ id: 1 })]
    expect(order('id_asc', tokens)).toEqual([1, 2, 3])
    expect(order('id_desc', tokens)).toEqual([3, 2, 1])
  })

  it('name_asc orders by code point (upper case first, astral after U+FFFD), ties by id ascending', () => {
    expect(order('name_asc', byName())).toEqual([4, 2, 1, 3, 6, 5])
  })

  it('name_desc is the exact reverse, ties by id descending', () => {
    expect(order('name_desc', byName())).toEqual([5, 6, 3, 1, 2, 4])
  })

  it('created_asc and created_at_asc: oldest first, ties by id ascending', () => {
    expect(order('created_asc', byCreation())).toEqual([4, 1, 2, 3])
    expect(order('created_at_asc', byCreation())).toEqual([4, 1, 2, 3])
  })

  it('created_desc, created_at_desc and created_date: newest first, ties by id descending', () => {
    for (const sort of ['created_desc', 'created_at_desc', 'created_date'] as const) {
      expect(order(sort, byCreation()), sort).toEqual([3, 2, 1, 4])
    }
  })

  it('expires_asc: soonest first, ties by id ascending, never-expiring tokens last', () => {
    expect(order('expires_asc', byExpiry())).toEqual([4, 1, 2, 3, 5])
  })

  it('expires_desc: never-expiring tokens first, then latest, ties by id descending', () => {
    expect(order('expires_desc', byExpiry())).toEqual([5, 3, 2, 1, 4])
  })

  it('last_used_asc: earliest use first, ties by id ascending, never-used tokens last', () => {
    expect(order('last_used_asc', byLastUse())).toEqual([4, 1, 2, 3, 5])
  })

  it('last_used_desc: never-used tokens first, then latest use, ties by id descending', () => {
    expect(order('last_used_desc', byLastUse())).toEqual([5, 3, 2, 1, 4])
  })

  it('every key is a total order: a token compares equal only to itself', () => {
    const tokens = [...byName(), ...byExpiry().map((t) => ({ ...t, id: t.id + 10 }))]
    for (const sort of SORT_KEYS) {
      const compare = compareTokens(sort)
      for (const a of tokens) {
        for (const b of tokens) {
          expect(Math.sign(compare(a, b)) + Math.sign(compare(b, a)), `${sort} ${a.id} ${b.id}`).toBe(0)
          if (a.id !== b.id) expect(compare(a, b), `${sort} ${a.id} ${b.id}`).not.toBe(0)
        }
      }
    }
  })
})

describe('isSortKey and DEFAULT_SORT', () => {
  it('every SORT_KEYS entry is a sort key, other strings are not', () => {
    for (const key of SORT_KEYS) expect(isSortKey(key)).toBe(true)
    expect(isSortKey('updated_asc')).toBe(false)
    expect(isSortKey('Name_asc')).toBe(false)
  })

  it('the default order is id ascending', () => {
    expect(DEFAULT_SORT).toBe('id_asc')
  })
})
