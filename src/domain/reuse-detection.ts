import { ok, type Result } from 'neverthrow'
import { isActive, type Token } from './token.js'

/**
 * Reuse detection: when a revoked token is presented to rotate, the tokens rotated from it (later
 * generations, followed forward through `previousId`) that are still active must be revoked. Earlier
 * generations, expired descendants and other families are untouched. A presented token that is not
 * revoked triggers nothing.
 *
 * @example
 * ```ts
 * import { tokensToRevokeOnReuse } from 'patkit/store'
 * import type { Token } from 'patkit'
 * declare const first: Token
 * declare const family: readonly Token[]
 *
 * // family: 1 -> 2 -> 3, token 3 active; token 1 is presented again
 * tokensToRevokeOnReuse(first, family, now) // ok([token3])
 * ```
 */
export function tokensToRevokeOnReuse(
  presented: Token,
  family: readonly Token[],
  now: Date,
): Result<readonly Token[], never> {
  if (!presented.revoked) return ok([])
  const successors = new Map<number, Token[]>()
  for (const token of family) {
    if (token.previousId === null) continue
    const list = successors.get(token.previousId)
    if (list === undefined) successors.set(token.previousId, [token])
    else list.push(token)
  }
  const doomed: Token[] = []
  const seen = new Set<number>([presented.id])
  const frontier = [presented.id]
  for (let id = frontier.pop(); id !== undefined; id = frontier.pop()) {
    for (const next of successors.get(id) ?? []) {
      if (seen.has(next.id)) continue
      seen.add(next.id)
      frontier.push(next.id)
      if (isActive(next, now)) doomed.push(next)
    }
  }
  return ok(doomed.sort((a, b) => a.id - b.id))
}
