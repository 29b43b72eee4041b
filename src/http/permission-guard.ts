import { err, ok, type Result } from 'neverthrow'
import { authorize, type PermissionDenied } from '../authority/core/authorize.js'
import type { Principal } from '../authority/core/principal.js'
import type { PermissionTarget } from '../domain/permission-grant.js'
import { bearerChallenge } from './error-response.js'
import { json, type Reply } from './responses.js'

/**
 * Where a guarded route's permission is needed: a target (`{ project: 42 }`, `{ group: 3 }`, `'user'`,
 * `'instance'`; a project or group may name the groups above it, `groups`), or a function of the
 * framework's request that gives it (a route parameter).
 *
 * @example
 * ```ts
 * import type { BoundaryOption } from 'patkit/http'
 * const fromPath: BoundaryOption<[Request]> = (request) => ({
 *   project: Number(new URL(request.url).pathname.split('/')[2]),
 * })
 * ```
 */
export type BoundaryOption<A extends unknown[] = unknown[]> =
  | PermissionTarget
  | ((...args: A) => PermissionTarget | Promise<PermissionTarget>)

/** GitLab's answer to a fine-grained token on a route that declares no permission. */
const UNSUPPORTED = "Access denied: This operation doesn't support fine-grained personal access tokens."

/**
 * Checks a guard's `permission` and `boundary` where the guard is built: a `TypeError` for a
 * permission neither a name nor a list of names, or a boundary neither a target nor a function; a
 * `RangeError` for an empty list or a permission outside the authority's vocabulary.
 */
export function checkPermission(permission: unknown, boundary: unknown, vocabulary: readonly string[]): void {
  const names: unknown[] =
    typeof permission === 'string' ? [permission] : Array.isArray(permission) ? permission : []
  if (names.length === 0) {
    throw new (Array.isArray(permission) ? RangeError : TypeError)(
      `patkit guard: permission must be a permission or a non-empty list of them, got ${JSON.stringify(permission) ?? String(permission)}`,
    )
  }
  const unknown = names.filter((name) => typeof name !== 'string' || !vocabulary.includes(name))
  if (unknown.length > 0) {
    const known =
      vocabulary.length === 0
        ? 'the authority declares none (createAuthority({ permissions: [...] }))'
        : `the authority's permissions are ${vocabulary.join(', ')}`
    throw new RangeError(
      `patkit guard: unknown ${unknown.length === 1 ? 'permission' : 'permissions'} ${unknown.map((n) => JSON.stringify(n) ?? String(n)).join(', ')} in permission; ${known}`,
    )
  }
  if (typeof boundary !== 'function' && !isTarget(boundary)) {
    throw new TypeError(
      `patkit guard: boundary must be { project: id }, { group: id }, 'user', 'instance' or a function of the request giving one, got ${JSON.stringify(boundary) ?? String(boundary)}`,
    )
  }
}

function isTarget(value: unknown): boolean {
  if (value === 'user' || value === 'instance') return true
  if (typeof value !== 'object' || value === null) return false
  return 'project' in value || 'group' in value
}

/**
 * The permission check of a guard that names one: a fine-grained token needs every permission where
 * the boundary is; a legacy token passes by the guard's `scopes` when it has them (GitLab keeps a
 * legacy token's scope rules), else it is refused as not fine-grained. A refusal is GitLab's 403
 * (`insufficient_granular_scope`, the message naming the missing permissions).
 */
export async function requirePermission<A extends unknown[]>(
  principal: Principal,
  permission: string | readonly string[],
  boundary: BoundaryOption<A>,
  realm: string,
  args: A,
): Promise<Result<void, Reply>> {
  const target = typeof boundary === 'function' ? await boundary(...args) : boundary
  const allowed = authorize(principal, permission, target)
  return allowed.isOk() ? ok(undefined) : err(permissionRefusal(allowed.error, realm))
}

/** The 403 of a permission a token lacks, in GitLab's shape, with an RFC 6750 challenge. */
export function permissionRefusal(denied: PermissionDenied, realm: string): Reply {
  return granularRefusal(denied.message, realm)
}

/** The 403 of a fine-grained token on a route that asks for scopes, not permissions (GitLab's). */
export function fineGrainedUnsupported(realm: string): Reply {
  return granularRefusal(UNSUPPORTED, realm)
}

function granularRefusal(description: string, realm: string): Reply {
  return json(
    403,
    { error: 'insufficient_granular_scope', error_description: description },
    { 'www-authenticate': bearerChallenge(realm, { error: 'insufficient_scope' }) },
  )
}
