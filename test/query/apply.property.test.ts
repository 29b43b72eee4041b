import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { CalendarDate } from '../../src/domain/calendar.js'
import type { Token } from '../../src/domain/token.js'
import { applyListQuery } from '../../src/query/apply.js'
import { type ListQuery, SORT_KEYS, type TokenFilter } from '../../src/query/filter.js'
import { referenceList } from './reference.js'

// Few distinct values, so that ties, exact bounds and nulls come up often.
const INSTANTS = [
  '2029-12-31T00:00:00.000Z',
  '2029-12-31T23:59:59.999Z',
  '2030-01-01T00:00:00.000Z',
  '2030-01-01T00:00:00.001Z',
  '2030-01-02T12:00:00.000Z',
]
const DAYS: CalendarDate[] = ['2029-12-31', '2030-01-01', '2030-01-02', '2030-02-01']
const NAME_PIECES = [
  'ci',
  'CI',
  'deploy',
  'Prod',
  'test_1',
  'test_2',
  '%',
  '_',
  '😀',
  '\uFFFD',
  'é',
  'É',
  ' ',
  '"',
]
const SEARCH_PIECES = ['ci', 'deploy', 'prod', 'test_1', '%', '_', '😀', 'é', ' ', '  ', '"', '"prod ci"']

const FILTER_KEYS = [
  'userId',
  'excludeImpersonation',
  'createdAfter',
  'createdBefore',
  'lastUsedAfter',
  'lastUsedBefore',
  'expiresAfter',
  'expiresBefore',
  'revoked',
  'state',
  'search',
] as const satisfies readonly (keyof TokenFilter)[]

const instant = fc.constantFrom(...INSTANTS).map((iso) => new Date(iso))
const day = fc.constantFrom(...DAYS)
const text = (pieces: string[]) =>
  fc.array(fc.constantFrom(...pieces), { maxLength: 4 }).map((parts) => parts.join(''))

const tokenData = fc.record({
  userId: fc.integer({ min: 1, max: 3 }),
  name: text(NAME_PIECES),
  createdAt: instant,
  lastUsedAt: fc.option(instant, { nil: null }),
  expiresAt: fc.option(day, { nil: null }),
  revoked: fc.boolean(),
  impersonation: fc.boolean(),
})

const tokens = fc.array(tokenData, { maxLength: 25 }).chain((data) =>
  fc
    .uniqueArray(fc.integer({ min: 1, max: 10_000 }), { minLength: data.length, maxLength: data.length })
    .map((ids) =>
      data.map(
        (d, i): Token => ({
          ...d,
          id: ids[i] ?? i,
          description: null,
          scopes: ['api'],
          previousId: null,
          familyId: ids[i] ?? i,
          digest: `digest-${i}`,
        }),
      ),
    ),
)

const filterFields = fc.record({
  userId: fc.integer({ min: 1, max: 3 }),
  excludeImpersonation: fc.boolean(),
  createdAfter: instant,
  createdBefore: instant,
  lastUsedAfter: instant,
  lastUsedBefore: instant,
  expiresAfter: day,
  expiresBefore: day,
  revoked: fc.boolean(),
  state: fc.constantFrom('active' as const, 'inactive' as const),
  search: text(SEARCH_PIECES),
})

// A few filters at a time: with all of them present, almost nothing would match and ordering and
// paging would go untested.
const filter: fc.Arbitrary<TokenFilter> = fc
  .tuple(filterFields, fc.subarray([...FILTER_KEYS], { maxLength: 3 }))
  .map(([fields, keys]) => {
    const picked: Record<string, unknown> = {}
    for (const key of keys) picked[key] = fields[key]
    return picked as TokenFilter
  })

const query: fc.Arbitrary<ListQuery> = fc.record({
  filter,
  sort: fc.constantFrom(...SORT_KEYS),
  page: fc.record({ page: fc.integer({ min: 1, max: 5 }), perPage: fc.integer({ min: 1, max: 10 }) }),
  now: instant,
})

describe('applyListQuery against an independent brute-force reference', () => {
  it('gives the same page and the same total for random tokens and queries', () => {
    fc.assert(
      fc.property(tokens, query, (all, q) => {
        const actual = applyListQuery(all, q)
        expect({ ids: actual.items.map((t) => t.id), total: actual.total }).toEqual(
          referenceList([...all], q),
        )
      }),
      { numRuns: 1000 },
    )
  })

  it('the pages of one query partition its matches: no token twice, none missing', () => {
    fc.assert(
      fc.property(tokens, query, (all, q) => {
        const perPage = q.page.perPage
        const whole = applyListQuery(all, { ...q, page: { page: 1, perPage: all.length + 1 } }).items
        const pages = Math.max(1, Math.ceil(whole.length / perPage))
        const stitched = Array.from(
          { length: pages },
          (_, i) => applyListQuery(all, { ...q, page: { page: i + 1, perPage } }).items,
        ).flat()
        expect(stitched.map((t) => t.id)).toEqual(whole.map((t) => t.id))
      }),
      { numRuns: 300 },
    )
  })
})
