import { err, ok, type Result } from 'neverthrow'
import { invalidParameter } from '../domain/error-constructors.js'
import { GRANULAR_ACCESS, type GranularAccess, type GranularScope } from '../domain/granular-scope.js'
import type { InvalidParameter } from './request-params.js'

// GitLab's `params :granular_scope_params` (lib/api/helpers/personal_access_tokens_helpers.rb):
//   optional :granular_scopes, type: Array do
//     requires :access, values: GRANULAR_SCOPE_ACCESS_VALUES; requires :permissions, type: Array[String]
//     optional :project_ids, :group_ids, type: Array[Integer], coerce_with: CommaSeparatedToIntegerArray
// Grape names an element's field `granular_scopes[i][field]` (the index form is not verified).
// Ids become scopes as `selected_memberships_attrs` makes them: one per group id, then one per project
// id, and only for `selected_memberships` (ignored with any other access; a `selected_memberships`
// entry without ids gives no scope). A form body's `granular_scopes[][access]=…&granular_scopes[][permissions][]=…`
// arrives here as the same array of hashes, grouped as Rack groups it (nested-form-params.ts), with
// strings for values: `project_ids[]=7` and `project_ids=7,8` are read as Grape coerces them. The
// indexed form `granular_scopes[0][access]` is not read as an array (whether Grape does is not verified).

const ACCESS: ReadonlySet<string> = new Set(GRANULAR_ACCESS)

function ids(value: unknown, parameter: string): Result<readonly number[], InvalidParameter> {
  if (value === undefined || value === null) return ok([])
  const parts: unknown[] =
    typeof value === 'string'
      ? value
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '')
      : Array.isArray(value)
        ? value
        : [value]
  const out: number[] = []
  for (const part of parts) {
    const id = typeof part === 'string' && /^\d{1,15}$/.test(part) ? Number(part) : part
    if (typeof id !== 'number' || !Number.isSafeInteger(id))
      return err(invalidParameter(parameter, 'invalid'))
    out.push(id)
  }
  return ok(out)
}

/**
 * The `granular_scopes` parameter as the scopes it makes, or Grape's first failure.
 */
export function parseGranularScopes(value: unknown): Result<readonly GranularScope[], InvalidParameter> {
  if (!Array.isArray(value)) return err(invalidParameter('granular_scopes', 'invalid'))
  const scopes: GranularScope[] = []
  for (const [i, entry] of value.entries()) {
    const name = (field: string) => `granular_scopes[${i}][${field}]`
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      return err(invalidParameter('granular_scopes', 'invalid'))
    }
    const {
      access,
      permissions,
      project_ids: projectIds,
      group_ids: groupIds,
    } = entry as Record<string, unknown>
    if (access === undefined) return err(invalidParameter(name('access'), 'missing'))
    if (typeof access !== 'string' || !ACCESS.has(access)) {
      return err(invalidParameter(name('access'), 'not_allowed_value'))
    }
    if (permissions === undefined) return err(invalidParameter(name('permissions'), 'missing'))
    if (!Array.isArray(permissions) || !permissions.every((p): p is string => typeof p === 'string')) {
      return err(invalidParameter(name('permissions'), 'invalid'))
    }
    const projects = ids(projectIds, name('project_ids'))
    if (projects.isErr()) return err(projects.error)
    const groups = ids(groupIds, name('group_ids'))
    if (groups.isErr()) return err(groups.error)
    const kind = access as GranularAccess
    if (kind !== 'selected_memberships') {
      scopes.push({ access: kind, permissions, projectId: null, groupId: null })
      continue
    }
    for (const groupId of groups.value) scopes.push({ access: kind, permissions, projectId: null, groupId })
    for (const projectId of projects.value)
      scopes.push({ access: kind, permissions, projectId, groupId: null })
  }
  return ok(scopes)
}
