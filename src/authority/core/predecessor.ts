import { err, ok, type Result } from 'neverthrow'
import { notFound, validationFailed } from '../../domain/error-constructors.js'
import type { ErrorOf } from '../../domain/errors.js'
import type { Token } from '../../domain/token.js'
import type { UserId } from '../../domain/user-id.js'
import type { AuthorityDeps } from './deps.js'
import { findTokenBy } from './token-access.js'

/**
 * Why `predecessor` cannot be the token a token of `userId` was rotated from, or `null` when it can
 * (as far as the token itself tells): a rotation revokes the token it rotates, and keeps its user.
 * The one wording of the family rule, shared by the mint path and the seed loader.
 */
export function predecessorProblem(
  predecessor: Pick<Token, 'id' | 'userId' | 'revoked'>,
  userId: UserId,
): string | null {
  if (predecessor.userId !== userId) {
    return `token ${predecessor.id} belongs to user ${String(predecessor.userId)}, not user ${String(userId)}; a token's predecessor must be the same user's`
  }
  if (!predecessor.revoked)
    return `token ${predecessor.id} is still active; a token's predecessor must be revoked`
  return null
}

/** The refusal of a second successor: a token is rotated once. */
export function secondSuccessorProblem(previous: number, successor: string): string {
  return `token ${previous} already has a successor (${successor}); a token is rotated at most once`
}

// A given predecessor must exist, be the same user's, be revoked, and have no successor yet, so a
// token put in place never forks a family. The answer is the family the new token joins.
export async function familyOf(
  deps: AuthorityDeps,
  previousId: number,
  userId: UserId,
): Promise<Result<number, ErrorOf<'not_found' | 'validation_failed' | 'store_failure'>>> {
  const previous = await findTokenBy<ErrorOf<'not_found' | 'validation_failed'>>(deps, previousId, {
    missing: notFound('token'),
    refuse: (token) => {
      const problem = predecessorProblem(token, userId)
      return problem === null ? null : validationFailed(problem)
    },
  })
  if (previous.isErr()) return err(previous.error)
  const successor = await deps.store.findSuccessor(previousId)
  if (successor.isErr()) return err(successor.error)
  if (successor.value !== null) {
    return err(validationFailed(secondSuccessorProblem(previousId, `token ${successor.value.id}`)))
  }
  return ok(previous.value.familyId)
}
