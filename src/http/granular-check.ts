import type { GranularAccessError, GranularRequirement } from '../authority/core/granular-access.js'
import { errorReply } from './error-response.js'
import { message, type Reply } from './responses.js'
import type { RoutePermission, RowShape } from './route.js'

// A user or instance requirement is the same object on every request: made once per row.
const FIXED = new WeakMap<RoutePermission, GranularRequirement>()

/**
 * A row's fine-grained requirement for one request: its declared permission at its boundary, the
 * project or group being the one the path names; `null` when the row declares none.
 */
export function granularRequirement(
  row: RowShape,
  path: Readonly<Record<string, string>>,
): GranularRequirement | null {
  const declared = row.permission
  if (declared === undefined) return null
  if (!('ref' in declared)) {
    let fixed = FIXED.get(declared)
    if (fixed === undefined) {
      fixed = { permission: declared.name, boundary: declared.boundary }
      FIXED.set(declared, fixed)
    }
    return fixed
  }
  return {
    permission: declared.name,
    boundary: declared.boundary,
    ref: path[declared.ref] ?? '',
    ...(declared.publicRead === true ? { publicRead: true } : {}),
  }
}

/**
 * GitLab's answer to a refused fine-grained token: 403 `insufficient_granular_scope`, or the
 * service's `404 Not Found` for a project or group it may not see (`reason: :resource_not_found`).
 */
export function granularRefusal(e: GranularAccessError): Reply {
  if (e.type === 'not_found') return { ...message(404, '404 Not Found'), refusal: e }
  return errorReply(e)
}
