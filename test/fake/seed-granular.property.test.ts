import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { GITLAB_PERMISSIONS } from '../../src/domain/gitlab-permissions.js'
import type { Seed, SeedToken } from '../../src/fake/seed/seed-schema.js'
import { fakeOver, snapshotOf } from './support/data-fake.js'

// Any valid `granular_scopes` of a seed token (GitLab's API shape, checked as the API checks them:
// one scope per namespace, at most one without one) is stored as the scopes the API would make (one
// per id), and a snapshot writes them so that restoring it gives the very same snapshot back.

const PERMISSIONS = Object.keys(GITLAB_PERMISSIONS)
const permissions = fc.uniqueArray(fc.constantFrom(...PERMISSIONS), { minLength: 1, maxLength: 4 })

const entries = fc
  .record({
    standalone: fc.option(fc.constantFrom('user', 'instance', 'all_memberships'), { nil: undefined }),
    personal: fc.boolean(),
    groups: fc.subarray([1, 2]),
    projects: fc.subarray([7, 8]),
    perms: fc.array(permissions, { minLength: 4, maxLength: 4 }),
  })
  .filter((r) => r.standalone !== undefined || r.personal || r.groups.length + r.projects.length > 0)
  .map(({ standalone, personal, groups, projects, perms }) => {
    const [a = ['read_user'], b = ['read_user'], c = ['read_user']] = perms
    return [
      ...(standalone === undefined ? [] : [{ access: standalone, permissions: a }]),
      ...(personal ? [{ access: 'personal_projects', permissions: b }] : []),
      ...(groups.length + projects.length === 0
        ? []
        : [
            {
              access: 'selected_memberships',
              permissions: c,
              ...(groups.length === 0 ? {} : { group_ids: groups }),
              ...(projects.length === 0 ? {} : { project_ids: projects }),
            },
          ]),
    ]
  })

type Granular = NonNullable<SeedToken['granular_scopes']>

function world(granular: Granular): Seed {
  return {
    users: [{ id: 2, username: 'alice' }],
    groups: [
      { id: 1, path: 'acme', name: 'Acme', members: [{ user_id: 2, access_level: 50 }] },
      { id: 2, path: 'team', name: 'Team', parent_id: 1 },
    ],
    projects: [
      { id: 7, path: 'api', name: 'API', group_id: 2 },
      { id: 8, path: 'web', name: 'Web', group_id: 1 },
    ],
    tokens: [
      {
        id: 5,
        user_id: 2,
        name: 'fine',
        token: 'glpat-granular-property-01',
        granular_scopes: granular,
      } as never,
    ],
  }
}

describe('granular_scopes in a seed', () => {
  it('round-trips: stored one scope per id, snapshot → restore → the same snapshot', async () => {
    await fc.assert(
      fc.asyncProperty(entries, async (granular) => {
        const fake = await fakeOver({ seed: world(granular as Granular) })
        const stored = (await fake.store.findById(5))._unsafeUnwrap()?.granularScopes ?? []
        const ids = granular.reduce(
          (n, e) =>
            n +
            (('group_ids' in e ? e.group_ids.length : 0) + ('project_ids' in e ? e.project_ids.length : 0) ||
              1),
          0,
        )
        expect(stored).toHaveLength(ids)
        const snapshot = await snapshotOf(fake)
        const again = await fakeOver({ seed: snapshot as Seed })
        expect(await snapshotOf(again)).toEqual(snapshot)
        expect((await again.store.findById(5))._unsafeUnwrap()?.granularScopes).toEqual(stored)
      }),
      { numRuns: 40 },
    )
  })
})
