import { err, errAsync, ok, type Result, ResultAsync } from 'neverthrow'
import { validationFailed } from '../../domain/error-constructors.js'
import type { ErrorOf } from '../../domain/errors.js'
import type { GranularScope } from '../../domain/granular-scope.js'
import { grantScope, type PermissionGrant } from '../../domain/permission-grant.js'
import type { UserId } from '../../domain/user-id.js'
import type { AuthorityDeps } from '../core/deps.js'
import type { IssuedToken } from '../core/issued-token.js'
import { type MintRequest, mint } from '../core/mint.js'
import { SEEDED_TOKEN } from '../core/token-kinds.js'

/**
 * A token to put in place directly, bypassing authorization and the expiry window: for seed files,
 * test fixtures and migrations. Everything but `userId`, `name` and `scopes` (or `permissions`, for a
 * fine-grained token) is optional; a given
 * `secret` is used as is (only its digest is stored), otherwise one is generated.
 *
 * @example
 * ```ts
 * import type { IssueTokenInput } from 'patkit/authority'
 * const input: IssueTokenInput = { userId: 2, name: 'ci', scopes: ['api'], secret: 'glpat-known-in-tests' }
 * ```
 */
export interface IssueTokenInput<P extends string = string> {
  /** The owner's id, of the authority's `userIdType`. */
  readonly userId: UserId
  readonly name: string
  /** A legacy token's scopes; exactly one of `scopes` and `permissions` is given. */
  readonly scopes?: readonly string[]
  /**
   * A fine-grained token's permissions, each list where its boundary reaches (see
   * {@link PermissionGrant}); instead of `scopes`, as GitLab's `granular_scopes`. Each permission must
   * be in the authority's `permissions`.
   */
  readonly permissions?: readonly PermissionGrant<P>[]
  readonly secret?: string
  readonly id?: number
  readonly description?: string | null
  /** `YYYY-MM-DD`, `null` for never; absent: today + the maximum lifetime when expiry is required. */
  readonly expiresAt?: string | null
  readonly createdAt?: Date
  readonly lastUsedAt?: Date | null
  /** The last client IPs, oldest first (at most five are kept: the newest). */
  readonly lastUsedIps?: readonly string[]
  readonly revoked?: boolean
  readonly impersonation?: boolean
  /**
   * The token this one was rotated from: a revoked token of the same user that has no successor yet
   * (anything else would fork its family: two active tokens, the next rotation failing).
   */
  readonly previousId?: number | null
}

/** Every way `issueToken` can fail. */
export type IssueError = ErrorOf<'invalid_parameter' | 'validation_failed' | 'not_found' | 'store_failure'>

// Where the seed loader has always imported the family rule's wording from.
export { predecessorProblem, secondSuccessorProblem } from '../core/predecessor.js'

/**
 * Stores a token as described, with a known or fresh secret. A `previousId` must name a revoked token
 * of the same user that was not rotated yet (`validation_failed` naming the reason otherwise), so a
 * token put in place never forks a family. The kind `SEEDED_TOKEN` through the one mint path.
 */
export function issueToken(
  deps: AuthorityDeps,
  input: IssueTokenInput,
): ResultAsync<IssuedToken, IssueError> {
  const { userId, name, scopes, permissions, description, expiresAt, ...given } = input
  const granted = grantedScopes(scopes, permissions, deps.permissions)
  if (granted.isErr()) return errAsync(granted.error)
  const request: MintRequest = {
    name,
    scopes: granted.value === null ? (scopes ?? []) : [],
    ...(granted.value === null ? {} : { granularScopes: granted.value }),
    ...(description === undefined ? {} : { description }),
    ...(expiresAt === undefined ? {} : { expiresAt }),
    given,
  }
  return new ResultAsync(mint(deps, SEEDED_TOKEN, null, userId, request)).mapErr(withoutWindow)
}

/**
 * The granular scopes of `permissions` (`null` for a legacy token), checked: exactly one of `scopes` and
 * `permissions` (JavaScript callers can pass both), each permission of the vocabulary, each boundary
 * well formed.
 */
function grantedScopes(
  scopes: readonly string[] | undefined,
  permissions: readonly PermissionGrant[] | undefined,
  vocabulary: readonly string[],
): Result<readonly GranularScope[] | null, IssueError> {
  if ((scopes === undefined) === (permissions === undefined)) {
    return err(validationFailed(EXACTLY_ONE))
  }
  if (permissions === undefined) return ok(null)
  if (permissions.length === 0) return err(validationFailed('At least one granular scope must be provided'))
  const result: GranularScope[] = []
  for (const grant of permissions) {
    if (grant.permissions.length === 0) return err(validationFailed("Permissions can't be blank"))
    const unknown = grant.permissions.filter((p) => !vocabulary.includes(p))
    if (unknown.length > 0) {
      const known =
        vocabulary.length === 0
          ? 'the authority declares none (its permissions option)'
          : `the authority's are ${vocabulary.join(', ')}`
      return err(
        validationFailed(
          `Permissions can only contain the authority's permissions: unknown ${unknown.join(', ')}; ${known}`,
        ),
      )
    }
    const problem = boundaryProblem(grant.boundary)
    if (problem !== null) return err(validationFailed(problem))
    result.push(grantScope(grant))
  }
  return ok(result)
}

const EXACTLY_ONE =
  'scopes, permissions: exactly one must be given (a token is legacy, with scopes, or fine-grained, with permissions)'

const BOUNDARY_WORDS: readonly unknown[] = ['user', 'instance', 'all', 'personal']

function boundaryProblem(boundary: unknown): string | null {
  if (BOUNDARY_WORDS.includes(boundary)) return null
  if (typeof boundary === 'object' && boundary !== null) {
    const id = 'project' in boundary ? boundary.project : 'group' in boundary ? boundary.group : undefined
    if (Number.isSafeInteger(id) && (id as number) > 0) return null
  }
  return `Boundary ${JSON.stringify(boundary) ?? String(boundary)} is invalid: { project: id }, { group: id }, 'user', 'instance', 'all' or 'personal'`
}

// The seeded kind checks no expiry window, so `invalid_expiry` never comes; the type says so here.
function withoutWindow(error: IssueError | ErrorOf<'invalid_expiry'>): IssueError {
  return error.type === 'invalid_expiry' ? validationFailed(error.message) : error
}
