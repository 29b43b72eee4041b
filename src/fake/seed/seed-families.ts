import { predecessorProblem, secondSuccessorProblem } from '../../authority/personal/issue-token.js'

/**
 * The fields of a seed token that place it in a family (the seed format's names).
 */
interface FamilyMember {
  readonly id?: number | undefined
  readonly user_id: number
  readonly revoked?: boolean | undefined
  readonly previous_id?: number | null | undefined
}

/**
 * What is wrong with one token's `previous_id`: the token's index in the seed's `tokens`, and a sentence.
 */
interface FamilyProblem {
  readonly index: number
  readonly message: string
}

/** Why `previous_id` may not name the token at `at`, or `null` when it may (a rotation left it so). */
function seedPredecessorProblem(
  tokens: readonly FamilyMember[],
  index: number,
  previous: number,
  at: number,
): string | null {
  if (at === index) return `token ${previous} is this token itself; a token cannot be rotated from itself`
  if (at > index) {
    return `token ${previous} comes later in the seed (tokens[${at}]); a token's predecessor must come before it`
  }
  const token = tokens[index]
  const predecessor = tokens[at]
  if (token === undefined || predecessor === undefined) return null
  return predecessorProblem(
    { id: previous, userId: predecessor.user_id, revoked: predecessor.revoked === true },
    token.user_id,
  )
}

/**
 * The family rules a seed must keep among its own tokens, so that loading it never forks a family
 * (two active tokens of one family, the next rotation failing): a token's `previous_id` names a token
 * listed BEFORE it (so neither itself nor a later token, which also rules out cycles), of the same
 * user, and revoked (a rotation revokes the token it rotates); and no token is named by two
 * `previous_id`s (a token is rotated once). A `previous_id` naming no token of the seed is left to the
 * loader, which looks it up among the stored tokens under the same rules.
 */
export function seedFamilyProblems(tokens: readonly FamilyMember[]): FamilyProblem[] {
  const indexById = new Map<number, number>()
  tokens.forEach((token, index) => {
    if (token.id !== undefined && !indexById.has(token.id)) indexById.set(token.id, index)
  })
  // previous_id -> the index of the first token naming it: the one successor a token may have.
  const successorAt = new Map<number, number>()
  const problems: FamilyProblem[] = []
  tokens.forEach((token, index) => {
    const previous = token.previous_id
    if (previous === undefined || previous === null) return
    const at = token.id === previous ? index : indexById.get(previous)
    const problem = at === undefined ? null : seedPredecessorProblem(tokens, index, previous, at)
    if (problem !== null) problems.push({ index, message: problem })
    const first = successorAt.get(previous)
    if (first === undefined) successorAt.set(previous, index)
    else {
      problems.push({ index, message: secondSuccessorProblem(previous, `tokens[${first}]`) })
    }
  })
  return problems
}
