import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  GRANULAR_ACCESS,
  type GranularBoundary,
  type GranularScope,
  missingPermissions,
  scopeReaches,
} from '../../src/domain/granular-scope.js'

// GitLab's rule: app/models/authz/granular_scope.rb (`for_standalone`, `for_namespaces` over the
// boundary's `self_and_ancestor_ids`).
const scope = (
  access: GranularScope['access'],
  ids: Partial<Pick<GranularScope, 'projectId' | 'groupId'>> = {},
) => ({
  access,
  permissions: ['read_project'],
  projectId: ids.projectId ?? null,
  groupId: ids.groupId ?? null,
})
const project: GranularBoundary = { type: 'project', id: 7, ancestorGroupIds: [3, 1], personal: false }

describe('scopeReaches', () => {
  it('reaches a user or instance boundary only with that access', () => {
    for (const access of GRANULAR_ACCESS) {
      expect(scopeReaches(scope(access), { type: 'user' })).toBe(access === 'user')
      expect(scopeReaches(scope(access), { type: 'instance' })).toBe(access === 'instance')
    }
  })

  it('reaches a project through itself, a group above it, or all memberships', () => {
    expect(scopeReaches(scope('selected_memberships', { projectId: 7 }), project)).toBe(true)
    expect(scopeReaches(scope('selected_memberships', { groupId: 1 }), project)).toBe(true)
    expect(scopeReaches(scope('selected_memberships', { groupId: 4 }), project)).toBe(false)
    expect(scopeReaches(scope('selected_memberships', { projectId: 8 }), project)).toBe(false)
    expect(scopeReaches(scope('all_memberships'), project)).toBe(true)
    expect(scopeReaches(scope('personal_projects'), project)).toBe(false)
    expect(scopeReaches(scope('personal_projects'), { ...project, personal: true })).toBe(true)
  })

  it('reaches a group through itself or a group above it, never through a project scope', () => {
    const group: GranularBoundary = { type: 'group', id: 3, ancestorGroupIds: [1] }
    expect(scopeReaches(scope('selected_memberships', { groupId: 3 }), group)).toBe(true)
    expect(scopeReaches(scope('selected_memberships', { groupId: 1 }), group)).toBe(true)
    expect(scopeReaches(scope('selected_memberships', { projectId: 3 }), group)).toBe(false)
    expect(scopeReaches(scope('personal_projects'), group)).toBe(false)
  })
})

describe('missingPermissions', () => {
  it('names what no reaching scope grants, in the order asked', () => {
    const scopes: GranularScope[] = [
      { access: 'user', permissions: ['read_user'], projectId: null, groupId: null },
      { access: 'instance', permissions: ['read_personal_access_token'], projectId: null, groupId: null },
    ]
    expect(missingPermissions(scopes, { type: 'user' }, ['read_personal_access_token', 'read_user'])).toEqual(
      ['read_personal_access_token'],
    )
  })

  it('never grants a permission that no scope holds (property)', () => {
    const access = fc.constantFrom(...GRANULAR_ACCESS)
    const permission = fc.constantFrom('a', 'b', 'c', 'd')
    const anyScope = fc.record({
      access,
      permissions: fc.array(permission, { maxLength: 3 }),
      projectId: fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }),
      groupId: fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }),
    })
    fc.assert(
      fc.property(
        fc.array(anyScope, { maxLength: 4 }),
        fc.array(permission, { maxLength: 4 }),
        (scopes, required) => {
          const missing = missingPermissions(scopes, project, required)
          for (const wanted of required) {
            const held = scopes.some((s) => scopeReaches(s, project) && s.permissions.includes(wanted))
            expect(missing.includes(wanted)).toBe(!held)
          }
        },
      ),
    )
  })
})
