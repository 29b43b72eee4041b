import fc from 'fast-check'
import { beforeAll, expect, it } from 'vitest'
import type { CalendarDate } from '../../src/domain/calendar.js'
import type { Token } from '../../src/domain/token.js'
import { memoryStore } from '../../src/memory/index.js'
import { type ListQuery, SORT_KEYS, type TokenFilter } from '../../src/query/filter.js'
import type { TokenStore } from '../../src/store/token-store.js'
import { okValue } from '../../src/testing/conformance/results.js'
import { migratedStore } from './support/conformance.js'
import {
  type DatabaseTarget,
  emptyTables,
  mariadb,
  pglite,
  postgres,
  sqliteMemory,
  uniquePrefix,
} from './support/databases.js'
import { describeDatabase } from './support/describe-database.js'

// Each run empties the tables, imports up to 20 tokens and asks 8 lists: a few dozen round trips.
const RUNS = 50

// Few distinct values, so ties, exact bounds and NULLs come up often; instants straddle the
// 2030-01-01 day boundary by a millisecond either way.
const INSTANTS = [
  '2029-12-31T00:00:00.000Z',
  '2029-12-31T23:59:59.999Z',
  '2030-01-01T00:00:00.000Z',
  '2030-01-01T00:00:00.001Z',
  '2030-01-02T12:00:00.000Z',
]
const DAYS: CalendarDate[] = ['2029-12-31', '2030-01-01', '2030-01-02', '2030-02-01']
// Names mix ASCII case, LIKE's metacharacters and escape character, spaces, quotes, a backslash (an
// escape in MySQL string literals), characters above the BMP and just below it (code point order),
// and non-ASCII letters. Only lower-case non-ASCII letters: SQLite's lower() folds ASCII only, and
// PostgreSQL's follows the database's LC_CTYPE, so 'É' matching 'é' differs by database (see
// docs/storage.md); every store agrees on ASCII case.
const NAME_PIECES = [
  'ci',
  'CI',
  'Deploy',
  'prod',
  'test_1',
  'test_2',
  '%',
  '_',
  '!',
  ' ',
  '"',
  '\\',
  'é',
  'ß',
  '😀',
  '\uFFFD',
]
const SEARCH_PIECES = [
  'ci',
  'CI',
  'deploy',
  'PROD',
  'test_1',
  '%',
  '_',
  '!',
  '\\',
  'é',
  'ß',
  '😀',
  ' ',
  '  ',
  '"',
  '"prod ci"',
]

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
  fc.array(fc.constantFrom(...pieces), { maxLength: 4 }).map((p) => p.join(''))

const tokens = fc
  .array(
    fc.record({
      userId: fc.integer({ min: 1, max: 3 }),
      name: text(NAME_PIECES),
      description: fc.option(fc.constantFrom('deploy key', 'é'), { nil: null }),
      createdAt: instant,
      lastUsedAt: fc.option(instant, { nil: null, freq: 3 }),
      expiresAt: fc.option(day, { nil: null, freq: 3 }),
      revoked: fc.boolean(),
      impersonation: fc.boolean(),
    }),
    { minLength: 1, maxLength: 20 },
  )
  .chain((data) =>
    fc
      .uniqueArray(fc.integer({ min: 1, max: 100_000 }), { minLength: data.length, maxLength: data.length })
      .map((ids) =>
        data.map(
          (d, i): Token => ({
            ...d,
            id: ids[i] ?? i + 1,
            scopes: i % 2 === 0 ? ['api'] : ['read_api', 'self_rotate'],
            previousId: null,
            familyId: ids[i] ?? i + 1,
            digest: `digest-${i}`,
          }),
        ),
      ),
  )

const filterFields = fc.record({
  userId: fc.integer({ min: 1, max: 4 }),
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

// A few filters at a time: with all of them present almost nothing would match, and the order, the
// pages and NULL placement would go untested.
const filter: fc.Arbitrary<TokenFilter> = fc
  .tuple(filterFields, fc.subarray([...FILTER_KEYS], { maxLength: 3 }))
  .map(([fields, keys]) => {
    const picked: Record<string, unknown> = {}
    for (const key of keys) picked[key] = fields[key]
    return picked as TokenFilter
  })

const listQuery: fc.Arbitrary<ListQuery> = fc.record({
  filter,
  sort: fc.constantFrom(...SORT_KEYS),
  page: fc.record({ page: fc.integer({ min: 1, max: 3 }), perPage: fc.integer({ min: 1, max: 10 }) }),
  now: instant,
})

function describeEquivalence(target: DatabaseTarget, tag: string): Promise<void> {
  const prefix = uniquePrefix(tag)
  return describeDatabase(target, prefix, (db) => {
    let store: TokenStore
    beforeAll(async () => {
      store = await migratedStore(db, prefix)
    })

    it(`lists the same tokens, in the same order, with the same total as memoryStore (${RUNS} runs)`, {
      timeout: 120_000,
    }, async () => {
      await fc.assert(
        fc.asyncProperty(
          tokens,
          fc.array(listQuery, { minLength: 8, maxLength: 8 }),
          async (data, queries) => {
            await emptyTables(db, prefix)
            const reference = memoryStore()
            for (const token of data) {
              await okValue(store.importToken(token))
              await okValue(reference.importToken(token))
            }
            for (const query of queries) {
              const expected = await okValue(reference.list(query))
              const actual = await okValue(store.list(query))
              expect(actual.total).toBe(expected.total)
              expect(actual.items.map((t) => t.id)).toEqual(expected.items.map((t) => t.id))
              expect(actual.items).toEqual(expected.items)
            }
          },
        ),
        { numRuns: RUNS },
      )
    })
  })
}

await describeEquivalence(sqliteMemory, 'esqlite')
await describeEquivalence(pglite, 'epglite')
await describeEquivalence(postgres, 'epg')
await describeEquivalence(mariadb, 'emy')
