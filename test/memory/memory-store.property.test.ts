import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { CalendarDate } from '../../src/domain/calendar.js'
import type { TokenDraft } from '../../src/domain/token.js'
import type { UserId } from '../../src/domain/user-id.js'
import { memoryStore } from '../../src/memory/index.js'
import type { ListQuery, SortKey, TokenFilter } from '../../src/query/filter.js'

// A reference written here, independently of src/query, from the decisions in design.md and the
// filter table in reference/gitlab-behavior.md. Stored tokens are compared as plain values.
interface Plain {
  id: number
  userId: UserId
  name: string
  createdAt: number
  lastUsedAt: number | null
  expiresAt: string | null
  revoked: boolean
  impersonation: boolean
}

const DAY_MS = 86_400_000
const BASE = Date.parse('2026-01-01T00:00:00.000Z')
const isoDay = (offsetDays: number): CalendarDate =>
  new Date(BASE + offsetDays * DAY_MS).toISOString().slice(0, 10) as CalendarDate

function referenceSearch(name: string, search: string): boolean {
  const squished = search.trim().split(/\s+/).filter(Boolean)
  if (squished.length === 0) return true
  const long = squished.filter((term) => term.length >= 3)
  const lower = name.toLowerCase()
  if (long.length === 0) return lower === squished.join(' ').toLowerCase()
  return long.every((term) => lower.includes(term.toLowerCase()))
}

function referenceMatch(t: Plain, f: TokenFilter, now: number): boolean {
  const expired = t.expiresAt !== null && Date.parse(`${t.expiresAt}T00:00:00.000Z`) <= now
  const checks: boolean[] = [
    f.userId === undefined || t.userId === f.userId,
    f.excludeImpersonation !== true || !t.impersonation,
    f.createdAfter === undefined || t.createdAt >= f.createdAfter.getTime(),
    f.createdBefore === undefined || t.createdAt <= f.createdBefore.getTime(),
    f.lastUsedAfter === undefined || (t.lastUsedAt !== null && t.lastUsedAt >= f.lastUsedAfter.getTime()),
    f.lastUsedBefore === undefined || (t.lastUsedAt !== null && t.lastUsedAt <= f.lastUsedBefore.getTime()),
    f.expiresAfter === undefined || (t.expiresAt !== null && t.expiresAt >= f.expiresAfter),
    f.expiresBefore === undefined || (t.expiresAt !== null && t.expiresAt < f.expiresBefore),
    f.revoked === undefined || t.revoked === f.revoked,
    f.state === undefined || (f.state === 'active') === (!t.revoked && !expired),
    f.search === undefined || referenceSearch(t.name, f.search),
  ]
  return checks.every(Boolean)
}

// Sorts whose reference is short to state: id, and created with its id tie-break.
const SORTS = ['id_asc', 'id_desc', 'created_asc', 'created_desc'] as const satisfies readonly SortKey[]

function referenceOrder(sort: (typeof SORTS)[number]): (a: Plain, b: Plain) => number {
  switch (sort) {
    case 'id_asc':
      return (a, b) => a.id - b.id
    case 'id_desc':
      return (a, b) => b.id - a.id
    case 'created_asc':
      return (a, b) => a.createdAt - b.createdAt || a.id - b.id
    case 'created_desc':
      return (a, b) => b.createdAt - a.createdAt || b.id - a.id
  }
}

const WORDS = ['deploy', 'Prod', 'ci', 'test_1', 'a%b', 'x'] as const

const tokenArb = fc.record({
  userId: fc.integer({ min: 1, max: 3 }),
  name: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }).map((words) => words.join(' ')),
  createdDay: fc.integer({ min: 0, max: 30 }),
  lastUsedDay: fc.option(fc.integer({ min: 0, max: 30 })),
  expiresDay: fc.option(fc.integer({ min: 100, max: 200 })),
  revoked: fc.boolean(),
  impersonation: fc.boolean(),
})

const day = fc.integer({ min: 0, max: 30 }).map((d) => new Date(BASE + d * DAY_MS))
const FILTER_VALUES = {
  excludeImpersonation: fc.boolean(),
  createdAfter: day,
  createdBefore: day,
  lastUsedAfter: day,
  lastUsedBefore: day,
  expiresAfter: fc.integer({ min: 100, max: 200 }).map(isoDay),
  expiresBefore: fc.integer({ min: 100, max: 200 }).map(isoDay),
  revoked: fc.boolean(),
  state: fc.constantFrom('active' as const, 'inactive' as const),
  search: fc.constantFrom('', ' ', 'deploy', 'PROD deploy', 'ci', 'CI X', 'test_1', 'test%1', 'a%b', 'x'),
}
const FILTER_KEYS = Object.keys(FILTER_VALUES) as (keyof typeof FILTER_VALUES)[]

// Up to three filters at once: more would leave almost every list empty.
const filterArb: fc.Arbitrary<TokenFilter> = fc
  .uniqueArray(fc.constantFrom(...FILTER_KEYS), { maxLength: 3 })
  .chain((keys) =>
    fc.record(Object.fromEntries(keys.map((k) => [k, FILTER_VALUES[k]])) as typeof FILTER_VALUES),
  )

// 500 runs, each filling a store and comparing lists: seconds of CPU on a busy machine.
describe('memoryStore list properties', { timeout: 30_000 }, () => {
  it('a user-scoped list returns exactly the reference answer and never a token of another user', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(tokenArb, { minLength: 10, maxLength: 40 }),
        // User 4 has no tokens: its list must be empty whatever the filter.
        fc.integer({ min: 1, max: 4 }),
        filterArb,
        fc.constantFrom(...SORTS),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 100, max: 200 }),
        async (specs, userId, filter, sort, page, perPage, nowDay) => {
          const store = memoryStore()
          const stored: Plain[] = []
          for (const [i, s] of specs.entries()) {
            const draft: TokenDraft = {
              userId: s.userId,
              name: s.name,
              description: null,
              scopes: ['api'],
              // Seconds apart within a day, so equal days make created ties only through equal seconds.
              createdAt: new Date(BASE + s.createdDay * DAY_MS + (i % 3) * 1000),
              lastUsedAt: s.lastUsedDay === null ? null : new Date(BASE + s.lastUsedDay * DAY_MS),
              expiresAt: s.expiresDay === null ? null : isoDay(s.expiresDay),
              revoked: s.revoked,
              impersonation: s.impersonation,
              previousId: null,
              familyId: null,
              digest: `digest-${i}`,
            }
            const token = (await store.insert(draft))._unsafeUnwrap()
            stored.push({
              id: token.id,
              userId: draft.userId,
              name: draft.name,
              createdAt: draft.createdAt.getTime(),
              lastUsedAt: draft.lastUsedAt?.getTime() ?? null,
              expiresAt: draft.expiresAt,
              revoked: draft.revoked,
              impersonation: draft.impersonation,
            })
          }
          const now = new Date(BASE + nowDay * DAY_MS + 43_200_000)
          const query: ListQuery = { filter: { ...filter, userId }, sort, page: { page, perPage }, now }
          const result = (await store.list(query))._unsafeUnwrap()

          for (const token of result.items) expect(token.userId).toBe(userId)
          const expected = stored
            .filter((t) => referenceMatch(t, query.filter, now.getTime()))
            .sort(referenceOrder(sort))
          expect(result.total).toBe(expected.length)
          const offset = (page - 1) * perPage
          expect(result.items.map((t) => t.id)).toEqual(
            expected.slice(offset, offset + perPage).map((t) => t.id),
          )
        },
      ),
      { numRuns: 500 },
    )
  })
})
