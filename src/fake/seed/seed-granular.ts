// The seed format's fine-grained scopes, made into stored scopes and back; the schema that checks them
// is `seed-granular-schema.ts`, apart, so that what starts `patkit serve` loads no zod (target 9b).
import type { GranularAccess, GranularScope } from '../../domain/granular-scope.js'
import type { PermissionGrant } from '../../domain/permission-grant.js'
import type { SeedProblem } from './seed-schema.js'

/**
 * One entry of a seed token's `granular_scopes` as the seed schema (`seed-granular-schema.ts`) admits
 * it: GitLab's REST shape (`granular_scope_params`).
 */
export interface SeedGranularEntry {
  readonly access: GranularAccess
  readonly permissions: string[]
  readonly project_ids?: number[] | undefined
  readonly group_ids?: number[] | undefined
}

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
