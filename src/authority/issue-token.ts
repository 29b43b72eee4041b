import { err, ok, type Result, ResultAsync } from 'neverthrow'
import { addCalendarDays, type CalendarDate, utcDay } from '../domain/calendar.js'
import { notFound, validationFailed } from '../domain/error-constructors.js'
import type { ErrorOf } from '../domain/errors.js'
import { MAX_LAST_USED_IPS } from '../domain/last-used.js'
import { mintSecret } from '../domain/mint-secret.js'
import type { TokenDraft } from '../domain/token.js'
import { type TokenFields, validateTokenFields } from '../domain/token-fields.js'
import type { UserId } from '../domain/user-id.js'
import { parseDateParameter } from './date-parameter.js'
import type { AuthorityDeps } from './deps.js'
import { toTokenInfo } from './events.js'
import type { IssuedToken } from './issued-token.js'

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

/**
 * Every way `issueToken` can fail.
 *
 * @example
 * ```ts
 * import type { IssueError } from './issue-token.js'
 * declare const e: IssueError
 * e.type
 * ```
 */
export type IssueError = ErrorOf<'invalid_parameter' | 'validation_failed' | 'not_found' | 'store_failure'>

/**
 * Why `predecessor` cannot be the token a token of `userId` was rotated from, or `null` when it can
 * (as far as the token itself tells): a rotation revokes the token it rotates, and keeps its user.
 * The one wording of the family rule, shared by `issueToken` and the seed loader.
 *
 * @example
 * ```ts
 * import { predecessorProblem } from './issue-token.js'
 *
 * predecessorProblem({ id: 10, userId: 2, revoked: false }, 2)
 * // "token 10 is still active; a token's predecessor must be revoked"
 * ```
 */
export function predecessorProblem(
  predecessor: { readonly id: number; readonly userId: UserId; readonly revoked: boolean },
  userId: UserId,
): string | null {
  if (predecessor.userId !== userId) {
    return `token ${predecessor.id} belongs to user ${String(predecessor.userId)}, not user ${String(userId)}; a token's predecessor must be the same user's`
  }
  if (!predecessor.revoked)
    return `token ${predecessor.id} is still active; a token's predecessor must be revoked`
  return null
}

/**
 * The refusal of a second successor: a token is rotated once.
 *
 * @example
 * ```ts
 * import { secondSuccessorProblem } from './issue-token.js'
 *
 * secondSuccessorProblem(10, 'token 11')
 * // 'token 10 already has a successor (token 11); a token is rotated at most once'
 * ```
 */
export function secondSuccessorProblem(previous: number, successor: string): string {
  return `token ${previous} already has a successor (${successor}); a token is rotated at most once`
}

// The family rules for a stored predecessor: it exists, is the same user's, is revoked, and has no
// successor yet (a store without the successor lookup refuses a second one as it writes, if at all).
async function familyOf(
  deps: AuthorityDeps,
  previousId: number,
  userId: UserId,
): Promise<Result<number, IssueError>> {
  const previous = await deps.store.findById(previousId)
  if (previous.isErr()) return err(previous.error)
  if (previous.value === null) return err(notFound('token'))
  const problem = predecessorProblem(previous.value, userId)
  if (problem !== null) return err(validationFailed(problem))
  if (deps.store.findSuccessor !== undefined) {
    const successor = await deps.store.findSuccessor(previousId)
    if (successor.isErr()) return err(successor.error)
    if (successor.value !== null) {
      return err(validationFailed(secondSuccessorProblem(previousId, `token ${successor.value.id}`)))
    }
  }
  return ok(previous.value.familyId)
}

// The fields every token has are checked by the domain's one rule, as `create` does; only the secret
// is particular to a token put in place (a seed may name one, and a guessable one is refused).
function validate(input: IssueTokenInput, scopes: readonly string[]): Result<TokenFields, IssueError> {
  const fields = validateTokenFields(input, scopes)
  if (fields.isErr()) return err(fields.error)
  if (input.secret !== undefined && input.secret.length < 8) {
    return err(validationFailed('Token is too short (minimum is 8 characters)'))
  }
  return fields
}

/**
 * Stores a token as described, with a known or fresh secret. A `previousId` must name a revoked token
 * of the same user that was not rotated yet (`validation_failed` naming the reason otherwise), so a
 * token put in place never forks a family.
 *
 * @example
 * ```ts
 * import { issueToken } from './issue-token.js'
 * import type { AuthorityDeps } from './deps.js'
 * declare const deps: AuthorityDeps
 *
 * const issued = await issueToken(deps, { userId: 2, name: 'ci', scopes: ['api'], secret: 'glpat-known-in-tests' })
 * ```
 */
export function issueToken(
  deps: AuthorityDeps,
  input: IssueTokenInput,
): ResultAsync<IssuedToken, IssueError> {
  return new ResultAsync(issueFor(deps, input))
}

async function issueFor(
  deps: AuthorityDeps,
  input: IssueTokenInput,
): Promise<Result<IssuedToken, IssueError>> {
  const fields = validate(input, deps.scopes)
  if (fields.isErr()) return err(fields.error)
  const owner = await deps.userById(input.userId)
  if (owner.isErr()) return err(owner.error)
  if (owner.value === null) return err(notFound('user'))
  const userId = owner.value.id
  const now = deps.clock.now()
  let expiresAt: CalendarDate | null
  if (input.expiresAt === null) expiresAt = null
  else {
    const parsed = parseDateParameter(input.expiresAt, 'expires_at')
    if (parsed.isErr()) return err(parsed.error)
    expiresAt =
      parsed.value ??
      (deps.expiry.requireExpiry ? addCalendarDays(utcDay(now), deps.expiry.maxLifetimeDays) : null)
  }
  let familyId: number | null = null
  if (input.previousId !== undefined && input.previousId !== null) {
    const family = await familyOf(deps, input.previousId, userId)
    if (family.isErr()) return err(family.error)
    familyId = family.value
  }
  const secret = input.secret ?? mintSecret(deps, userId)
  const draft: TokenDraft = {
    userId,
    name: fields.value.name,
    description: fields.value.description,
    scopes: fields.value.scopes,
    createdAt: input.createdAt ?? now,
    lastUsedAt: input.lastUsedAt ?? null,
    ...(input.lastUsedIps === undefined || input.lastUsedIps.length === 0
      ? {}
      : { lastUsedIps: input.lastUsedIps.slice(-MAX_LAST_USED_IPS) }),
    expiresAt,
    revoked: input.revoked ?? false,
    impersonation: input.impersonation ?? false,
    previousId: input.previousId ?? null,
    familyId,
    digest: deps.digest(secret),
  }
  const token = await (input.id === undefined
    ? deps.store.insert(draft)
    : deps.store.importToken({ ...draft, id: input.id, familyId: familyId ?? input.id }))
  if (token.isErr()) return err(token.error)
  deps.emit({ type: 'created', at: now, actorUserId: null, token: toTokenInfo(token.value) })
  return ok({ token: token.value, secret })
}
