import { err, ok, type Result } from 'neverthrow'
import { missingPermissions } from '../../domain/granular-scope.js'
import { type PermissionTarget, targetBoundary, targetLabel } from '../../domain/permission-grant.js'
import type { Token } from '../../domain/token.js'
import type { Principal } from './principal.js'

/**
 * Why {@link authorize} refused: `not_fine_grained` for a legacy token (one with `scopes`, which carries
 * no permissions), `missing_permissions` for a fine-grained token without them where the target is.
 * `missing` lists the permissions not granted there (all of them for a legacy token); `message` is
 * GitLab's sentence (`Authz::Tokens::AuthorizeGranularScopesService`), with the permissions' own names.
 *
 * @example
 * ```ts
 * import type { PermissionDenied } from 'patkit/authority'
 * const denied: PermissionDenied = {
 *   type: 'insufficient_permission', reason: 'missing_permissions', missing: ['write_invoice'], boundary: 'project',
 *   message: 'Access denied: This operation requires a fine-grained personal access token with the following project permissions: [write_invoice].',
 * }
 * ```
 */
export interface PermissionDenied {
  readonly type: 'insufficient_permission'
  readonly reason: 'not_fine_grained' | 'missing_permissions'
  readonly missing: readonly string[]
  readonly boundary: 'user' | 'instance' | 'project' | 'group'
  readonly message: string
}

/**
 * Whether a token (or the principal `authenticate` returned) holds `permission` (or every one of a
 * list) where `target` is, by GitLab's rule for fine-grained tokens: a scope grants its permissions
 * where its boundary reaches (`{ project }` that project; `{ group }` the group and what is under it,
 * which a target names through `groups`; `'all'` every project and group; `'user'` and `'instance'`
 * those targets only). A legacy token holds no permission. Pure: no store is read.
 *
 * @example
 * ```ts
 * import { authorize } from 'patkit/authority'
 *
 * const caller = await authority.authenticate(secret)
 * if (caller.isOk()) {
 *   const allowed = authorize(caller.value, 'read_invoice', { project: 42 })
 *   if (allowed.isErr()) console.log(allowed.error.missing) // ['read_invoice']
 * }
 * ```
 */
export function authorize<P extends string>(
  holder: Principal | Token,
  permission: P | readonly P[],
  target: PermissionTarget,
): Result<void, PermissionDenied> {
  const token = 'token' in holder ? holder.token : holder
  const required: readonly string[] = typeof permission === 'string' ? [permission] : permission
  const boundary = targetLabel(target)
  if (token.granularScopes === undefined) {
    return err(denied('not_fine_grained', required, boundary))
  }
  const missing = missingPermissions(token.granularScopes, targetBoundary(target), required)
  return missing.length === 0 ? ok(undefined) : err(denied('missing_permissions', missing, boundary))
}

function denied(
  reason: PermissionDenied['reason'],
  missing: readonly string[],
  boundary: PermissionDenied['boundary'],
): PermissionDenied {
  const message = `Access denied: This operation requires a fine-grained personal access token with the following ${boundary} permissions: [${[...missing].sort().join(', ')}].`
  return { type: 'insufficient_permission', reason, missing, boundary, message }
}
