import { z } from 'zod'
import { isKnownPermission } from '../../domain/gitlab-permissions.js'
import { GRANULAR_ACCESS, type GranularScope } from '../../domain/granular-scope.js'
import type { PermissionGrant } from '../../domain/permission-grant.js'
import type { SeedProblem } from './seed-schema.js'

const id = z.number().int().positive()

/**
 * One entry of a seed token's `granular_scopes`, in the shape GitLab's REST API takes
 * (`granular_scope_params`): `project_ids` and `group_ids` only with `selected_memberships`, which needs
 * at least one of them (the API would make no scope of it; a seed says so instead). Each permission
 * must be one of GitLab's assignable permissions patkit knows.
 */
export const seedGranularScopeSchema = z
  .strictObject({
    access: z.enum(GRANULAR_ACCESS),
    permissions: z
      .array(
        z.string().refine(isKnownPermission, {
          error: (issue) =>
            `Unknown permission ${JSON.stringify(issue.input)}: not one of GitLab's assignable permissions (docs/testing.md, "Fine-grained tokens in a seed", lists them)`,
        }),
      )
      .min(1, 'At least one permission'),
    project_ids: z.array(id).min(1).optional(),
    group_ids: z.array(id).min(1).optional(),
  })
  .superRefine((entry, context) => {
    for (const [at, permission] of entry.permissions.entries()) {
      if (entry.permissions.indexOf(permission) !== at) {
        context.addIssue({
          code: 'custom',
          path: ['permissions', at],
          message: `Permission ${JSON.stringify(permission)} is listed twice`,
        })
      }
    }
    const selected = entry.access === 'selected_memberships'
    for (const field of ['project_ids', 'group_ids'] as const) {
      if (!selected && entry[field] !== undefined) {
        context.addIssue({
          code: 'custom',
          path: [field],
          message: `${field} goes with access selected_memberships only, not ${entry.access}`,
        })
      }
    }
    if (selected && entry.project_ids === undefined && entry.group_ids === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['access'],
        message: 'selected_memberships needs project_ids or group_ids: the projects and groups it reaches',
      })
    }
  })

type SeedGranularEntry = z.output<typeof seedGranularScopeSchema>

/**
 * The scopes a seed token's `granular_scopes` make, as the REST API makes them
 * (`selected_memberships_attrs`): one per group id, then one per project id; any other access one scope
 * without ids.
 */
export function seedGranularScopes(entries: readonly SeedGranularEntry[]): GranularScope[] {
  const scopes: GranularScope[] = []
  for (const { access, permissions, project_ids: projects, group_ids: groups } of entries) {
    if (access !== 'selected_memberships') {
      scopes.push({ access, permissions, projectId: null, groupId: null })
      continue
    }
    for (const groupId of groups ?? []) scopes.push({ access, permissions, projectId: null, groupId })
    for (const projectId of projects ?? []) scopes.push({ access, permissions, projectId, groupId: null })
  }
  return scopes
}

/**
 * A stored token's granular scopes in the seed format (a snapshot's): one entry per scope, so that
 * loading it gives the very same scopes back.
 */
export function granularScopesJson(scopes: readonly GranularScope[]): SeedGranularEntry[] {
  return scopes.map(({ access, permissions, projectId, groupId }) => ({
    access,
    permissions: [...permissions],
    ...(groupId === null ? {} : { group_ids: [groupId] }),
    ...(projectId === null ? {} : { project_ids: [projectId] }),
  }))
}

/**
 * The scopes as `issueToken`'s `permissions` (its boundaries are GitLab's accesses in other words:
 * `grantScope` maps each back to the very scope).
 */
export function grantsOf(scopes: readonly GranularScope[]): PermissionGrant[] {
  return scopes.map(({ access, permissions, projectId, groupId }): PermissionGrant => {
    if (access === 'selected_memberships') {
      return { permissions, boundary: projectId !== null ? { project: projectId } : { group: groupId ?? 0 } }
    }
    if (access === 'all_memberships') return { permissions, boundary: 'all' }
    if (access === 'personal_projects') return { permissions, boundary: 'personal' }
    return { permissions, boundary: access }
  })
}

/**
 * The projects and groups a seed's granular tokens name that neither the seed nor the store has
 * (`exists` says whether the store or the seed holds one), each at its field.
 */
export async function granularReferenceProblems(
  tokens: readonly { readonly granular_scopes?: readonly SeedGranularEntry[] | undefined }[],
  exists: (type: 'project' | 'group', id: number) => Promise<boolean>,
): Promise<SeedProblem[]> {
  const problems: SeedProblem[] = []
  for (const [index, token] of tokens.entries()) {
    for (const [at, entry] of (token.granular_scopes ?? []).entries()) {
      for (const [field, type] of [
        ['group_ids', 'group'],
        ['project_ids', 'project'],
      ] as const) {
        for (const [i, ref] of (entry[field] ?? []).entries()) {
          if (await exists(type, ref)) continue
          problems.push({
            path: `tokens[${index}].granular_scopes[${at}].${field}[${i}]`,
            message: `No ${type} with id ${ref} in the seed or the data`,
          })
        }
      }
    }
  }
  return problems
}
