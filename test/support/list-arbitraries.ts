import fc from 'fast-check'
import type { CalendarDate } from '../../src/domain/calendar.js'
import type { Scope } from '../../src/domain/scopes.js'
import type { Token } from '../../src/domain/token.js'
import { type ListQuery, SORT_KEYS, type TokenFilter } from '../../src/query/filter.js'

// fast-check arbitraries for tokens and list queries, shared by the property tests that compare a
// list implementation with a reference (test/query/apply.property.test.ts against a brute-force
// reference, test/sql/equivalence.property.test.ts against memoryStore). The character pieces for
// names and searches stay in each test file: what each implementation must agree on differs.

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

export const instant = fc.constantFrom(...INSTANTS).map((iso) => new Date(iso))
export const day = fc.constantFrom(...DAYS)

/** Up to four of the given pieces, concatenated. */
export const text = (pieces: readonly string[]) =>
  fc.array(fc.constantFrom(...pieces), { maxLength: 4 }).map((parts) => parts.join(''))

export interface TokensOptions {
  /** Name pieces; each test file keeps its own (the SQL one restricts non-ASCII case). */
  namePieces: readonly string[]
  /** Fewest tokens in a list: the SQL test always imports at least one. */
  minLength?: number
  /** Most tokens in a list: each SQL run pays a round trip per token, so it generates fewer. */
  maxLength: number
  /** Largest token id; ids are distinct within a list. */
  maxId: number
  /** When given, descriptions are null or one of these (stored and read back by SQL); else always null. */
  descriptions?: readonly string[]
  /**
   * fast-check's `freq` for `lastUsedAt` and `expiresAt`: null about once in `nullFreq` draws. Left
   * out, fast-check's default; the SQL test sets 3 so that NULL placement in the order comes up more.
   */
  nullFreq?: number
  /** Scopes of the token at an index: the SQL test alternates two sets to round-trip a list column. */
  scopes?: (index: number) => Scope[]
}

/** Lists of users' tokens with distinct ids, each the first of its own family. */
export function tokensArbitrary(options: TokensOptions): fc.Arbitrary<Token[]> {
  const { descriptions, nullFreq } = options
  const scopes = options.scopes ?? ((): Scope[] => ['api'])
  const nullable = nullFreq === undefined ? { nil: null } : { nil: null, freq: nullFreq }
  const data = fc.record({
    userId: fc.integer({ min: 1, max: 3 }),
    name: text(options.namePieces),
    description:
      descriptions === undefined
        ? fc.constant(null)
        : fc.option(fc.constantFrom(...descriptions), { nil: null }),
    createdAt: instant,
    lastUsedAt: fc.option(instant, nullable),
    expiresAt: fc.option(day, nullable),
    revoked: fc.boolean(),
    impersonation: fc.boolean(),
  })
  const lengths = options.minLength === undefined ? {} : { minLength: options.minLength }
  return fc.array(data, { ...lengths, maxLength: options.maxLength }).chain((rows) =>
    fc
      .uniqueArray(fc.integer({ min: 1, max: options.maxId }), {
        minLength: rows.length,
        maxLength: rows.length,
      })
      .map((ids) =>
        rows.map(
          (d, i): Token => ({
            ...d,
            id: ids[i] ?? i + 1,
            scopes: scopes(i),
            previousId: null,
            familyId: ids[i] ?? i + 1,
            digest: `digest-${i}`,
          }),
        ),
      ),
  )
}

export interface ListQueryOptions {
  /**
   * Largest user id a filter asks for; tokens belong to users 1 to 3, so 4 also asks for a user
   * without tokens.
   */
  maxUserId: number
  /** Search pieces; each test file keeps its own, like the name pieces. */
  searchPieces: readonly string[]
  /** Largest page number: the SQL test asks for fewer tokens, so later pages would mostly be empty. */
  maxPage: number
}

/**
 * A few filters at a time: with all of them present almost nothing would match, and the order, the
 * pages and NULL placement would go untested.
 */
export function filterArbitrary(options: Omit<ListQueryOptions, 'maxPage'>): fc.Arbitrary<TokenFilter> {
  const fields = fc.record({
    userId: fc.integer({ min: 1, max: options.maxUserId }),
    excludeImpersonation: fc.boolean(),
    createdAfter: instant,
    createdBefore: instant,
    lastUsedAfter: instant,
    lastUsedBefore: instant,
    expiresAfter: day,
    expiresBefore: day,
    revoked: fc.boolean(),
    state: fc.constantFrom('active' as const, 'inactive' as const),
    search: text(options.searchPieces),
  })
  return fc.tuple(fields, fc.subarray([...FILTER_KEYS], { maxLength: 3 })).map(([values, keys]) => {
    const picked: Record<string, unknown> = {}
    for (const key of keys) picked[key] = values[key]
    return picked as TokenFilter
  })
}

/** A filter, a sort key, a page of 1 to 10 tokens and a current instant. */
export function listQueryArbitrary(options: ListQueryOptions): fc.Arbitrary<ListQuery> {
  return fc.record({
    filter: filterArbitrary(options),
    sort: fc.constantFrom(...SORT_KEYS),
    page: fc.record({
      page: fc.integer({ min: 1, max: options.maxPage }),
      perPage: fc.integer({ min: 1, max: 10 }),
    }),
    now: instant,
  })
}
