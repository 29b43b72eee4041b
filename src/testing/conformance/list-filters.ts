import { expect } from 'vitest'
import type { CalendarDate } from '../../domain/calendar.js'
import { type ConformanceContext, listNames, query, seeder } from './context.js'
import { okValue } from './results.js'

const T = new Date('2026-03-01T10:00:00.000Z')
const ms = (offset: number): Date => new Date(T.getTime() + offset)
const day = (value: string): CalendarDate => value as CalendarDate

/**
 * Conformance tests of every list filter and its boundaries.
 */
export function describeListFilters(ctx: ConformanceContext): void {
  ctx.group('list filters', () => {
    ctx.test('list without a filter returns every token in id order with the total', async (store) => {
      await seeder(store).insertAll([
        { name: 'a', userId: 1 },
        { name: 'b', userId: 2, revoked: true },
        { name: 'c', userId: 1, impersonation: true, expiresAt: null },
      ])
      const page = await okValue(store.list(query({})))
      expect(page.items.map((t) => t.name)).toEqual(['a', 'b', 'c'])
      expect(page.total).toBe(3)
    })

    ctx.test('list of an empty store is empty with total 0', async (store) => {
      expect(await okValue(store.list(query({})))).toEqual({ items: [], total: 0 })
      expect(await okValue(store.list(query({ userId: 1 })))).toEqual({ items: [], total: 0 })
    })

    ctx.test('list filter userId returns only the tokens of that user', async (store) => {
      await seeder(store).insertAll([
        { name: 'a1', userId: 1 },
        { name: 'b1', userId: 2 },
        { name: 'a2', userId: 1, revoked: true },
        { name: 'c1', userId: 3 },
      ])
      expect(await listNames(store, { userId: 1 })).toEqual(['a1', 'a2'])
      expect(await listNames(store, { userId: 2 })).toEqual(['b1'])
      expect(await listNames(store, { userId: 4 })).toEqual([])
    })

    ctx.test('list filter excludeImpersonation leaves impersonation tokens out', async (store) => {
      await seeder(store).insertAll([{ name: 'plain' }, { name: 'impersonation', impersonation: true }])
      expect(await listNames(store, { excludeImpersonation: true })).toEqual(['plain'])
      expect(await listNames(store, { excludeImpersonation: false })).toEqual(['plain', 'impersonation'])
    })

    ctx.test('list filter impersonationOnly keeps impersonation tokens only', async (store) => {
      await seeder(store).insertAll([
        { name: 'plain' },
        { name: 'impersonation', impersonation: true },
        { name: 'other user', userId: 2, impersonation: true },
      ])
      expect(await listNames(store, { impersonationOnly: true })).toEqual(['impersonation', 'other user'])
      expect(await listNames(store, { userId: 1, impersonationOnly: true })).toEqual(['impersonation'])
      expect(await listNames(store, { impersonationOnly: false })).toEqual([
        'plain',
        'impersonation',
        'other user',
      ])
    })

    ctx.test('list filter createdAfter is inclusive', async (store) => {
      await seeder(store).insertAll([
        { name: 'before', createdAt: ms(-1) },
        { name: 'at', createdAt: ms(0) },
        { name: 'after', createdAt: ms(1) },
      ])
      expect(await listNames(store, { createdAfter: T })).toEqual(['at', 'after'])
    })

    ctx.test('list filter createdBefore is inclusive', async (store) => {
      await seeder(store).insertAll([
        { name: 'before', createdAt: ms(-1) },
        { name: 'at', createdAt: ms(0) },
        { name: 'after', createdAt: ms(1) },
      ])
      expect(await listNames(store, { createdBefore: T })).toEqual(['before', 'at'])
      expect(await listNames(store, { createdAfter: T, createdBefore: T })).toEqual(['at'])
    })

    ctx.test('list filter lastUsedAfter is inclusive and never matches a never-used token', async (store) => {
      await seeder(store).insertAll([
        { name: 'never', lastUsedAt: null },
        { name: 'before', lastUsedAt: ms(-1) },
        { name: 'at', lastUsedAt: ms(0) },
        { name: 'after', lastUsedAt: ms(1) },
      ])
      expect(await listNames(store, { lastUsedAfter: T })).toEqual(['at', 'after'])
      expect(await listNames(store, { lastUsedAfter: new Date(0) })).toEqual(['before', 'at', 'after'])
    })

    ctx.test(
      'list filter lastUsedBefore is inclusive and never matches a never-used token',
      async (store) => {
        await seeder(store).insertAll([
          { name: 'never', lastUsedAt: null },
          { name: 'before', lastUsedAt: ms(-1) },
          { name: 'at', lastUsedAt: ms(0) },
          { name: 'after', lastUsedAt: ms(1) },
        ])
        expect(await listNames(store, { lastUsedBefore: T })).toEqual(['before', 'at'])
        expect(await listNames(store, { lastUsedBefore: new Date('2100-01-01T00:00:00.000Z') })).toEqual([
          'before',
          'at',
          'after',
        ])
      },
    )

    ctx.test(
      'list filter expiresAfter is inclusive and never matches a token that never expires',
      async (store) => {
        await seeder(store).insertAll([
          { name: 'never', expiresAt: null },
          { name: 'before', expiresAt: day('2026-06-30') },
          { name: 'at', expiresAt: day('2026-07-01') },
          { name: 'after', expiresAt: day('2026-07-02') },
        ])
        expect(await listNames(store, { expiresAfter: day('2026-07-01') })).toEqual(['at', 'after'])
      },
    )

    ctx.test(
      'list filter expiresBefore is strict and never matches a token that never expires',
      async (store) => {
        await seeder(store).insertAll([
          { name: 'never', expiresAt: null },
          { name: 'before', expiresAt: day('2026-06-30') },
          { name: 'at', expiresAt: day('2026-07-01') },
          { name: 'after', expiresAt: day('2026-07-02') },
        ])
        expect(await listNames(store, { expiresBefore: day('2026-07-01') })).toEqual(['before'])
        expect(
          await listNames(store, { expiresAfter: day('2026-07-01'), expiresBefore: day('2026-07-02') }),
        ).toEqual(['at'])
      },
    )

    ctx.test('list filter revoked selects revoked or unrevoked tokens', async (store) => {
      await seeder(store).insertAll([
        { name: 'live' },
        { name: 'revoked', revoked: true },
        { name: 'expired', expiresAt: day('2026-01-01') },
        { name: 'both', revoked: true, expiresAt: day('2026-01-01') },
      ])
      expect(await listNames(store, { revoked: true })).toEqual(['revoked', 'both'])
      expect(await listNames(store, { revoked: false })).toEqual(['live', 'expired'])
    })

    ctx.test(
      'list filter state is evaluated at the now of the query: inactive is revoked or expired',
      async (store) => {
        await seeder(store).insertAll([
          { name: 'active', expiresAt: day('2026-07-01') },
          { name: 'never-expires', expiresAt: null },
          { name: 'revoked', revoked: true, expiresAt: day('2026-07-01') },
          { name: 'expired', expiresAt: day('2026-06-01') },
          { name: 'both', revoked: true, expiresAt: day('2026-06-01') },
        ])
        expect(await listNames(store, { state: 'active' })).toEqual(['active', 'never-expires'])
        expect(await listNames(store, { state: 'inactive' })).toEqual(['revoked', 'expired', 'both'])
        // The same tokens a month later: the one expiring on 2026-07-01 is now inactive.
        const later = { now: new Date('2026-07-15T00:00:00.000Z') }
        expect(await listNames(store, { state: 'active' }, later)).toEqual(['never-expires'])
      },
    )

    ctx.test('list filter state turns inactive at 00:00:00.000 UTC on the expiry day', async (store) => {
      await seeder(store).insertAll([{ name: 'expiring', expiresAt: day('2026-06-16') }])
      const lastActive = { now: new Date('2026-06-15T23:59:59.999Z') }
      const firstExpired = { now: new Date('2026-06-16T00:00:00.000Z') }
      expect(await listNames(store, { state: 'active' }, lastActive)).toEqual(['expiring'])
      expect(await listNames(store, { state: 'inactive' }, lastActive)).toEqual([])
      expect(await listNames(store, { state: 'active' }, firstExpired)).toEqual([])
      expect(await listNames(store, { state: 'inactive' }, firstExpired)).toEqual(['expiring'])
    })
  })

  ctx.group('list search', () => {
    ctx.test(
      'list filter search ANDs terms of 3+ characters as case-insensitive substrings',
      async (store) => {
        await seeder(store).insertAll([
          { name: 'Deploy Production' },
          { name: 'deploy staging' },
          { name: 'production backup' },
          { name: 'CI' },
        ])
        expect(await listNames(store, { search: 'PROD deploy' })).toEqual(['Deploy Production'])
        expect(await listNames(store, { search: 'ploy' })).toEqual(['Deploy Production', 'deploy staging'])
        // Terms shorter than 3 characters are dropped when a longer one remains.
        expect(await listNames(store, { search: 'ci backup' })).toEqual(['production backup'])
      },
    )

    ctx.test(
      'list filter search without a 3+ character term matches the whole name, ignoring case',
      async (store) => {
        await seeder(store).insertAll([{ name: 'ci' }, { name: 'CI' }, { name: 'ci-2' }, { name: 'a ci' }])
        expect(await listNames(store, { search: 'Ci' })).toEqual(['ci', 'CI'])
        expect(await listNames(store, { search: 'A CI' })).toEqual(['a ci'])
        expect(await listNames(store, { search: 'c' })).toEqual([])
      },
    )

    ctx.test('list filter search treats % and _ as literal characters', async (store) => {
      await seeder(store).insertAll([
        { name: 'test_1' },
        { name: 'test_2' },
        { name: 'testx1' },
        { name: '100% done' },
        { name: '100 done' },
        { name: 'x' },
      ])
      expect(await listNames(store, { search: 'test_1' })).toEqual(['test_1'])
      expect(await listNames(store, { search: '100%' })).toEqual(['100% done'])
      expect(await listNames(store, { search: '%%%' })).toEqual([])
      expect(await listNames(store, { search: '_' })).toEqual([])
      expect(await listNames(store, { search: '%' })).toEqual([])
    })

    ctx.test('list filter search with an empty or blank string is no filter', async (store) => {
      await seeder(store).insertAll([{ name: 'a' }, { name: 'b' }])
      expect(await listNames(store, { search: '' })).toEqual(['a', 'b'])
      expect(await listNames(store, { search: '   ' })).toEqual(['a', 'b'])
    })

    ctx.test('list filters combine with AND', async (store) => {
      await seeder(store).insertAll([
        { name: 'deploy one', userId: 1 },
        { name: 'deploy two', userId: 1, revoked: true },
        { name: 'deploy three', userId: 2 },
        { name: 'other', userId: 1 },
        { name: 'deploy four', userId: 1, createdAt: ms(0), impersonation: true },
      ])
      expect(await listNames(store, { userId: 1, state: 'active', search: 'deploy' })).toEqual([
        'deploy one',
        'deploy four',
      ])
      expect(
        await listNames(store, { userId: 1, state: 'active', search: 'deploy', excludeImpersonation: true }),
      ).toEqual(['deploy one'])
      expect(await listNames(store, { userId: 1, search: 'deploy', createdAfter: T })).toEqual([
        'deploy four',
      ])
    })
  })
}
