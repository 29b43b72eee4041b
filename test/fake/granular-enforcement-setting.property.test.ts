import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { FakeAuthority } from '../../src/fake/fake-authority.js'
import type { Seed } from '../../src/fake/seed/seed-schema.js'
import { control, fakeOver } from './support/data-fake.js'

// enforce_granular_tokens by the fake clock (AuthorizeGranularScopesService#granular_token_required?;
// the shared example 'authorizing granular token permissions' enforces from `Date.current`, so the day
// itself is enforced): for any enforcement day and any number of days the clock moves, a human's legacy
// token reads a project of the group exactly while the clock is before the day, and a fine-grained
// token with the permission always reads it. The fake's clock starts at 2026-01-01.

const LEGACY = 'glpat-enforce-prop-legacy-01'
const FINE = 'glpat-enforce-prop-granular1'

function seed(day: string): Seed {
  return {
    users: [{ id: 2, username: 'alice' }],
    groups: [
      {
        id: 1,
        path: 'acme',
        name: 'Acme',
        members: [{ user_id: 2, access_level: 40 }],
        enforce_granular_tokens: true,
        granular_tokens_enforced_after: day,
      },
      { id: 2, path: 'team', name: 'Team', parent_id: 1 },
    ],
    projects: [{ id: 7, path: 'api', name: 'API', group_id: 2 }],
    tokens: [
      { user_id: 2, name: 'legacy', scopes: ['read_api'], token: LEGACY, expires_at: '2027-01-01' },
      {
        user_id: 2,
        name: 'fine',
        granular_scopes: [{ access: 'selected_memberships', permissions: ['read_project'], group_ids: [1] }],
        token: FINE,
        expires_at: '2027-01-01',
      },
    ],
  }
}

async function status(fake: FakeAuthority, secret: string): Promise<number> {
  const response = await fake.handler(
    new Request('http://127.0.0.1/api/v4/projects/acme%2Fteam%2Fapi', {
      headers: { 'PRIVATE-TOKEN': secret },
    }),
  )
  await response.body?.cancel()
  return response.status
}

describe('enforce_granular_tokens follows the fake clock', () => {
  it('a legacy token is refused exactly from the enforcement day on; a granted fine-grained token never', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: -5, max: 5 }),
        fc.integer({ min: 0, max: 10 }),
        async (offset, moved) => {
          const start = Date.UTC(2026, 0, 1)
          const day = new Date(start + offset * 86_400_000).toISOString().slice(0, 10)
          const fake = await fakeOver({ seed: seed(day) })
          if (moved > 0) await control(fake, 'POST', '/clock/advance', { days: moved })
          const enforced = moved >= offset
          expect(await status(fake, LEGACY)).toBe(enforced ? 403 : 200)
          expect(await status(fake, FINE)).toBe(200)
        },
      ),
      { numRuns: 40 },
    )
  })
})
