import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { permissionLabels } from '../../src/domain/gitlab-permission-labels.js'
import {
  GRANULAR_ACCESS,
  type GranularBoundary,
  type GranularScope,
  missingPermissions,
} from '../../src/domain/granular-scope.js'
import { ALICE } from '../support/authority-fixtures.js'
import { granularWorld } from '../support/granular-world.js'

// The property issue 31 asks for: no fine-grained token reaches a route or boundary its scopes do not
// grant. The model is the domain's `missingPermissions` (GitLab's for_standalone/for_namespaces rule,
// fine-grained-pats.md §2) over each route's declared permission and boundary (§8.1); the HTTP answer
// must agree with it: 403 insufficient_granular_scope exactly when the model finds permissions missing
// (404 `Not Found` for a resource hidden from the caller, §0), nothing from the check otherwise.

interface Probe {
  readonly method: 'GET' | 'POST'
  readonly path: string
  readonly permission: string
  readonly boundary: GranularBoundary
  readonly publicRead?: boolean
  readonly hidden?: boolean
  readonly public?: boolean
}

// The world's resources as alice sees them (granular-world.ts).
const P7: GranularBoundary = { type: 'project', id: 7, ancestorGroupIds: [4, 3], personal: false }
const P8: GranularBoundary = { type: 'project', id: 8, ancestorGroupIds: [5], personal: false }
const P9: GranularBoundary = { type: 'project', id: 9, ancestorGroupIds: [6], personal: false }
const P10: GranularBoundary = { type: 'project', id: 10, ancestorGroupIds: [], personal: true }
const G3: GranularBoundary = { type: 'group', id: 3, ancestorGroupIds: [] }
const G4: GranularBoundary = { type: 'group', id: 4, ancestorGroupIds: [3] }
const G5: GranularBoundary = { type: 'group', id: 5, ancestorGroupIds: [] }
const G6: GranularBoundary = { type: 'group', id: 6, ancestorGroupIds: [] }
const USER: GranularBoundary = { type: 'user' }
const INSTANCE: GranularBoundary = { type: 'instance' }

const PROBES: readonly Probe[] = [
  {
    method: 'GET',
    path: '/personal_access_tokens/self',
    permission: 'read_personal_access_token',
    boundary: USER,
  },
  {
    method: 'GET',
    path: '/personal_access_tokens',
    permission: 'read_personal_access_token',
    boundary: USER,
  },
  {
    method: 'GET',
    path: '/personal_access_tokens/self/associations',
    permission: 'read_personal_access_token',
    boundary: USER,
  },
  { method: 'GET', path: '/user', permission: 'read_user', boundary: USER },
  { method: 'GET', path: `/users/${ALICE.id}`, permission: 'read_user', boundary: USER },
  { method: 'GET', path: '/users?username=alice', permission: 'read_user', boundary: INSTANCE },
  { method: 'GET', path: '/version', permission: 'read_metadata', boundary: INSTANCE },
  { method: 'GET', path: '/metadata', permission: 'read_metadata', boundary: INSTANCE },
  {
    method: 'GET',
    path: '/users/2/impersonation_tokens',
    permission: 'read_impersonation_token',
    boundary: INSTANCE,
  },
  { method: 'GET', path: '/service_accounts', permission: 'read_service_account', boundary: INSTANCE },
  { method: 'GET', path: '/projects/7', permission: 'read_project', boundary: P7, publicRead: true },
  {
    method: 'GET',
    path: '/projects/8',
    permission: 'read_project',
    boundary: P8,
    publicRead: true,
    public: true,
  },
  {
    method: 'GET',
    path: '/projects/9',
    permission: 'read_project',
    boundary: P9,
    publicRead: true,
    hidden: true,
  },
  {
    method: 'GET',
    path: '/projects/alice%2Fnotes',
    permission: 'read_project',
    boundary: P10,
    publicRead: true,
  },
  { method: 'GET', path: '/groups/3', permission: 'read_group', boundary: G3, publicRead: true },
  {
    method: 'GET',
    path: '/groups/acme%2Fplatform',
    permission: 'read_group',
    boundary: G4,
    publicRead: true,
  },
  {
    method: 'GET',
    path: '/groups/5',
    permission: 'read_group',
    boundary: G5,
    publicRead: true,
    public: true,
  },
  {
    method: 'GET',
    path: '/groups/6',
    permission: 'read_group',
    boundary: G6,
    publicRead: true,
    hidden: true,
  },
  {
    method: 'GET',
    path: '/projects/7/access_tokens',
    permission: 'read_resource_access_token',
    boundary: P7,
  },
  {
    method: 'GET',
    path: '/projects/8/access_tokens',
    permission: 'read_resource_access_token',
    boundary: P8,
    public: true,
  },
  {
    method: 'GET',
    path: '/projects/9/access_tokens',
    permission: 'read_resource_access_token',
    boundary: P9,
    hidden: true,
  },
  { method: 'GET', path: '/groups/4/access_tokens', permission: 'read_resource_access_token', boundary: G4 },
  {
    method: 'GET',
    path: '/groups/6/access_tokens',
    permission: 'read_resource_access_token',
    boundary: G6,
    hidden: true,
  },
  { method: 'GET', path: '/groups/3/service_accounts', permission: 'read_service_account', boundary: G3 },
]

const PERMISSIONS = [...new Set(PROBES.map((p) => p.permission))]

const scopeArb: fc.Arbitrary<GranularScope> = fc
  .record({
    access: fc.constantFrom(...GRANULAR_ACCESS),
    permissions: fc.subarray(PERMISSIONS, { minLength: 1 }),
    target: fc.oneof(
      fc.record({ projectId: fc.constantFrom(7, 8, 9, 10, 99) }),
      fc.record({ groupId: fc.constantFrom(3, 4, 5, 6, 99) }),
    ),
  })
  .map(({ access, permissions, target }) => ({
    access,
    permissions,
    projectId: access === 'selected_memberships' && 'projectId' in target ? target.projectId : null,
    groupId: access === 'selected_memberships' && 'groupId' in target ? target.groupId : null,
  }))

type Outcome =
  | { kind: 'pass' }
  | { kind: 'denied'; boundary: string; missing: readonly string[] }
  | { kind: 'hidden' }

function model(scopes: readonly GranularScope[], probe: Probe): Outcome {
  if (probe.publicRead === true && probe.public === true) return { kind: 'pass' }
  const missing = missingPermissions(scopes, probe.boundary, [probe.permission])
  if (missing.length === 0) return { kind: 'pass' }
  return probe.hidden === true
    ? { kind: 'hidden' }
    : { kind: 'denied', boundary: probe.boundary.type, missing }
}

describe('property: no fine-grained token reaches a route or boundary its scopes do not grant', () => {
  it('the HTTP answer agrees with missingPermissions on every probed route', async () => {
    const w = await granularWorld()
    await fc.assert(
      fc.asyncProperty(
        fc.array(scopeArb, { minLength: 0, maxLength: 3 }),
        fc.constantFrom(...PROBES),
        async (scopes, probe) => {
          const t = await w.token(ALICE.id, scopes)
          const r = await w.call(probe.method, probe.path, t.secret)
          const expected = model(scopes, probe)
          const body = r.json as Record<string, unknown> | null
          if (expected.kind === 'denied') {
            expect(r.status).toBe(403)
            expect(body).toEqual({
              error: 'insufficient_granular_scope',
              error_description: `Access denied: This operation requires a fine-grained personal access token with the following ${expected.boundary} permissions: [${permissionLabels(expected.missing).join(', ')}].`,
            })
          } else if (expected.kind === 'hidden') {
            expect(r.status).toBe(404)
            expect(body).toEqual({ message: '404 Not Found' })
          } else {
            expect(body?.['error']).not.toBe('insufficient_granular_scope')
            expect(body).not.toEqual({ message: '404 Not Found' })
          }
        },
      ),
      { numRuns: 300 },
    )
  })
})
