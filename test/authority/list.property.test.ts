import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isActive, isExpired, type Token } from '../../src/index.js'
import { ADMIN, ALICE, BOB, T0, world } from '../support/authority-fixtures.js'

const users = [ADMIN, ALICE, BOB]
const DAY = 86_400_000

const tokenSpec = fc.record({
  userIndex: fc.integer({ min: 0, max: 2 }),
  name: fc.constantFrom('deploy', 'Deploy prod', 'ci', 'ci-runner', 'backup', 'test_1', 'test%2'),
  createdOffsetDays: fc.integer({ min: -30, max: 0 }),
  expiresOffsetDays: fc.option(fc.integer({ min: -5, max: 30 }), { nil: null }),
  revoked: fc.boolean(),
  impersonation: fc.boolean(),
})

const filterSpec = fc.record(
  {
    state: fc.constantFrom('active' as const, 'inactive' as const),
    revoked: fc.boolean(),
    search: fc.constantFrom('deploy', 'ci', 'run', 'test_1', 'PROD'),
    createdAfterDays: fc.integer({ min: -30, max: 0 }),
  },
  { requiredKeys: [] },
)

/** An independent reference: what a user may see, per the spec, written without src/query. */
function reference(
  all: readonly Token[],
  viewer: { id: number; admin: boolean },
  f: typeof filterSpec extends fc.Arbitrary<infer F> ? F : never,
) {
  return all
    .filter((t) => (viewer.admin ? true : t.userId === viewer.id && !t.impersonation))
    .filter(
      (t) =>
        f.state === undefined || (f.state === 'active' ? isActive(t, T0) : t.revoked || isExpired(t, T0)),
    )
    .filter((t) => f.revoked === undefined || t.revoked === f.revoked)
    .filter((t) => {
      if (f.search === undefined) return true
      const q = f.search.toLowerCase()
      return q.length >= 3 ? t.name.toLowerCase().includes(q) : t.name.toLowerCase() === q
    })
    .filter(
      (t) =>
        f.createdAfterDays === undefined || t.createdAt.getTime() >= T0.getTime() + f.createdAfterDays * DAY,
    )
    .map((t) => t.id)
    .sort((a, b) => a - b)
}

describe('list visibility property', () => {
  it('a non-administrator never receives another user token, and every list equals the brute-force reference', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(tokenSpec, { maxLength: 25 }),
        fc.integer({ min: 0, max: 2 }),
        filterSpec,
        async (specs, viewerIndex, f) => {
          const w = await world()
          const viewer = users[viewerIndex] as (typeof users)[number]
          const principal = await w.login(viewer.id, { expiresAt: null })
          const all: Token[] = [principal.token]
          for (const s of specs) {
            const expires =
              s.expiresOffsetDays === null ? null : new Date(T0.getTime() + s.expiresOffsetDays * DAY)
            const { token } = await w.issue((users[s.userIndex] as (typeof users)[number]).id, {
              name: s.name,
              createdAt: new Date(T0.getTime() + s.createdOffsetDays * DAY),
              expiresAt: expires === null ? null : expires.toISOString().slice(0, 10),
              revoked: s.revoked,
              impersonation: s.impersonation,
            })
            all.push(token)
          }
          const page = (
            await w.authority.list(principal, {
              filter: {
                ...(f.state === undefined ? {} : { state: f.state }),
                ...(f.revoked === undefined ? {} : { revoked: f.revoked }),
                ...(f.search === undefined ? {} : { search: f.search }),
                ...(f.createdAfterDays === undefined
                  ? {}
                  : { createdAfter: new Date(T0.getTime() + f.createdAfterDays * DAY) }),
              },
              page: { perPage: 100 },
            })
          )._unsafeUnwrap()
          if (!viewer.admin) for (const t of page.items) expect(t.userId).toBe(viewer.id)
          expect(page.items.map((t) => t.id)).toEqual(reference(all, viewer, f))
          expect(page.pagination.total).toBe(page.items.length)
        },
      ),
      { numRuns: 150 },
    )
  })
})
