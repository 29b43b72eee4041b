import { ResultAsync } from 'neverthrow'
import { validationFailed } from '../../domain/error-constructors.js'
import type { ErrorOf } from '../../domain/errors.js'
import type { UserId } from '../../domain/user-id.js'
import type { AuthorityDeps } from '../core/deps.js'
import type { IssuedToken } from '../core/issued-token.js'
import { type MintRequest, mint } from '../core/mint.js'
import { SEEDED_TOKEN } from '../core/token-kinds.js'

/**
 * A token to put in place directly, bypassing authorization and the expiry window: for seed files,
 * test fixtures and migrations. Everything but `userId`, `name` and `scopes` is optional; a given
 * `secret` is used as is (only its digest is stored), otherwise one is generated.
 *
 * @example
 * ```ts
 * import type { IssueTokenInput } from 'patkit/authority'
 * const input: IssueTokenInput = { userId: 2, name: 'ci', scopes: ['api'], secret: 'glpat-known-in-tests' }
 * ```
 */
export interface IssueTokenInput {
  /** The owner's id, of the authority's `userIdType`. */
  readonly userId: UserId
  readonly name: string
  readonly scopes: readonly string[]
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
  const { userId, name, scopes, description, expiresAt, ...given } = input
  const request: MintRequest = {
    name,
    scopes,
    ...(description === undefined ? {} : { description }),
    ...(expiresAt === undefined ? {} : { expiresAt }),
    given,
  }
  return new ResultAsync(mint(deps, SEEDED_TOKEN, null, userId, request)).mapErr(withoutWindow)
}

// The seeded kind checks no expiry window, so `invalid_expiry` never comes; the type says so here.
function withoutWindow(error: IssueError | ErrorOf<'invalid_expiry'>): IssueError {
  return error.type === 'invalid_expiry' ? validationFailed(error.message) : error
}
