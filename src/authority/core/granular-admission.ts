import { errAsync, okAsync, ResultAsync } from 'neverthrow'
import { forbidden, notFound } from '../../domain/error-constructors.js'
import type { ErrorOf, StoreFailure } from '../../domain/errors.js'
import { checkGranularScopes, escalates } from '../../domain/granular-request.js'
import type { GranularScope } from '../../domain/granular-scope.js'
import type { AuthorityDeps } from './deps.js'
import type { Actor } from './principal.js'
import { groupInView, projectInView, viewerOf } from './resource-access.js'

/** Every way {@link admitGranularScopes} refuses. */
export type GranularAdmissionError = ErrorOf<'not_found' | 'forbidden' | 'validation_failed'> | StoreFailure

const ESCALATION = 'A granular token can only create tokens with equal or lesser permissions.'

/**
 * GitLab's path for `granular_scopes` on creation, in its order: each project or group of a
 * `selected_memberships` scope must be one the caller is a member of (directly or through a group
 * above; `not_found!` otherwise, 404, also for one that does not exist, where GitLab drops it silently:
 * patkit's choice); a granular calling token may only grant what it holds (PrivilegeEscalationCheck:
 * 403, the status GitLab's `reason: :forbidden` suggests; unverified); then the service's and the
 * model's checks (`checkGranularScopes`, 400). A legacy request (no `granular_scopes`) is admitted as it is.
 */
export function admitGranularScopes(
  deps: AuthorityDeps,
  principal: Actor,
  scopes: readonly GranularScope[] | undefined,
): ResultAsync<readonly GranularScope[] | undefined, GranularAdmissionError> {
  if (scopes === undefined) return okAsync(undefined)
  const viewer = viewerOf(principal)
  const userId = principal.user.id
  const ancestors = new Map<GranularScope, readonly number[]>()
  const reach = async (): Promise<GranularAdmissionError | undefined> => {
    for (const scope of scopes) {
      if (scope.access !== 'selected_memberships') continue
      const looked =
        scope.groupId !== null
          ? await groupInView(deps, viewer, String(scope.groupId))
          : await projectInView(deps, viewer, String(scope.projectId))
      if (looked.isErr()) return looked.error.type === 'not_found' ? notFound('token') : looked.error
      // `boundary.member?(current_user)`: a member here or in a group above; an administrator too is not.
      if (typeof userId !== 'number' || looked.value.access === null) return notFound('token')
      const above = looked.value.chain.slice(1).map((g) => g.id)
      ancestors.set(scope, above)
    }
    return undefined
  }
  return ResultAsync.fromSafePromise(reach()).andThen((refused) => {
    if (refused !== undefined) return errAsync(refused)
    const calling = principal.token?.granularScopes
    if (calling !== undefined && escalates(calling, scopes, (s) => ancestors.get(s) ?? [])) {
      return errAsync(forbidden(ESCALATION))
    }
    const checked = checkGranularScopes(scopes)
    return checked.isErr() ? errAsync(checked.error) : okAsync(checked.value)
  })
}
