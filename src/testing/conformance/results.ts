import type { Result } from 'neverthrow'

type Outcome<T, E> = PromiseLike<Result<T, E>>

function show(value: unknown): string {
  // Errors (a store_failure's cause) have no enumerable fields; show their message instead of `{}`.
  return JSON.stringify(value, (_key, v: unknown) => (v instanceof Error ? `${v.name}: ${v.message}` : v))
}

/**
 * The value of a store call that must succeed; a failure fails the test with the error shown.
 *
 * @example
 * ```ts
 * import { draftFactory } from 'patkit/testing'
 * import { okValue } from './results.js'
 *
 * const draft = draftFactory()
 * const token = await okValue(store.insert(draft()))
 * ```
 */
export async function okValue<T, E>(outcome: Outcome<T, E>): Promise<T> {
  const result = await outcome
  if (result.isErr()) throw new Error(`expected ok, got the error ${show(result.error)}`)
  return result.value
}

/**
 * The error of a store call that must fail; a success fails the test with the value shown.
 *
 * @example
 * ```ts
 * import { draftFactory } from 'patkit/testing'
 * import { errValue } from './results.js'
 *
 * const draft = draftFactory()
 * const error = await errValue(store.rotate(404, draft()))
 * error.type // 'not_found'
 * ```
 */
export async function errValue<T, E>(outcome: Outcome<T, E>): Promise<E> {
  const result = await outcome
  if (result.isOk()) throw new Error(`expected an error, got ok ${show(result.value)}`)
  return result.error
}
