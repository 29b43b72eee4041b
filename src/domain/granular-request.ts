import { err, ok, type Result } from 'neverthrow'
import { validationFailed } from './error-constructors.js'
import type { ErrorOf } from './errors.js'
import { isKnownPermission } from './gitlab-permissions.js'
import type { GranularScope } from './granular-scope.js'

// GitLab's texts: CreateGranularService (empty list), GranularScopeService#validate_unique_namespace,
// and the model's json_schema validator (`granular_scope_permissions.json`: known assignable names,
// unique, at least one). How REST renders the model's error was not found: patkit answers it as a
// validation failure (400 `{"message":"400 Bad request - …"}`), like the service's texts.
const EMPTY = 'At least one granular scope must be provided'
const SAME_NAMESPACE = 'The token cannot have multiple granular scopes for the same namespace'
const STANDALONE = 'The token cannot have multiple instance-level granular scopes'
const PERMISSIONS = 'Permissions must be a valid json schema'

/**
 * GitLab's checks of a fine-grained token's scopes on creation, in its order: at least one scope; each
 * scope's `permissions` non-empty, unique and known (see `GITLAB_PERMISSIONS`); at most one scope per
 * namespace (a group, a project, the owner's personal namespace) and at most one without a namespace
 * (`user`, `instance` and `all_memberships` all have none, as GitLab stores them).
 */
export function checkGranularScopes(
  scopes: readonly GranularScope[],
): Result<readonly GranularScope[], ErrorOf<'validation_failed'>> {
  if (scopes.length === 0) return err(validationFailed(EMPTY))
  const namespaces = new Set<string>()
  let standalone = 0
  for (const scope of scopes) {
    const { permissions } = scope
    if (
      permissions.length === 0 ||
      new Set(permissions).size !== permissions.length ||
      !permissions.every(isKnownPermission)
    ) {
      return err(validationFailed(PERMISSIONS))
    }
    const namespace = namespaceOf(scope)
    if (namespace === null) {
      standalone += 1
      if (standalone > 1) return err(validationFailed(STANDALONE))
    } else if (namespaces.has(namespace)) return err(validationFailed(SAME_NAMESPACE))
    else namespaces.add(namespace)
  }
  return ok(scopes)
}

function namespaceOf(scope: GranularScope): string | null {
  if (scope.access === 'personal_projects') return 'personal'
  if (scope.groupId !== null) return `group:${scope.groupId}`
  if (scope.projectId !== null) return `project:${scope.projectId}`
  return null
}

/**
 * GitLab's `PrivilegeEscalationCheck`: whether a granular calling token may create a token with
 * `requested` scopes. Each requested scope's permissions must all be granted by the calling token's
 * scopes that cover it: `user`, `instance` and `all_memberships` by scopes of the same access;
 * `personal_projects` by `all_memberships` or `personal_projects`; `selected_memberships` by
 * `all_memberships` or a `selected_memberships` scope on the same project or group or on a group
 * above it (`ancestorGroupIds(scope)`: the groups above the requested project or group). patkit
 * compares assignable names, not their expansion into raw permissions.
 */
export function escalates(
  calling: readonly GranularScope[],
  requested: readonly GranularScope[],
  ancestorGroupIds: (scope: GranularScope) => readonly number[],
): boolean {
  return requested.some((scope) => {
    const granted = new Set<string>()
    for (const mine of calling) {
      if (covers(mine, scope, ancestorGroupIds)) for (const p of mine.permissions) granted.add(p)
    }
    return !scope.permissions.every((p) => granted.has(p))
  })
}

function covers(
  mine: GranularScope,
  scope: GranularScope,
  ancestorGroupIds: (scope: GranularScope) => readonly number[],
): boolean {
  switch (scope.access) {
    case 'user':
    case 'instance':
    case 'all_memberships':
      return mine.access === scope.access
    case 'personal_projects':
      return mine.access === 'all_memberships' || mine.access === 'personal_projects'
    case 'selected_memberships': {
      if (mine.access === 'all_memberships') return true
      if (mine.access !== 'selected_memberships') return false
      if (mine.projectId !== null) return mine.projectId === scope.projectId
      return (
        mine.groupId !== null &&
        (mine.groupId === scope.groupId || ancestorGroupIds(scope).includes(mine.groupId))
      )
    }
  }
}
