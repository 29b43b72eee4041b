import { type Result, ResultAsync } from 'neverthrow'

/**
 * A `ResultAsync` whose result is already known: it is awaited like any other, and it also carries the
 * result itself, for a caller that can use it at once.
 */
class SettledResultAsync<T, E> extends ResultAsync<T, E> {
  readonly settled: Result<T, E>

  constructor(result: Result<T, E>) {
    super(Promise.resolve(result))
    this.settled = result
  }
}

/**
 * A `ResultAsync` of a result the store already holds (an in-memory store; a cache on a hit). Awaited,
 * it is an ordinary `ResultAsync`; the authority also reads its result at once (`settledResult`), so
 * an authentication that needs no write finishes without waiting for the store's promise
 * (docs/benchmarks.md, target 1). Nothing changes for a caller that maps it (the mapped `ResultAsync`
 * is an ordinary one) or for a store wrapper that returns its own: their results are awaited as before.
 * Immutable once made, one can be returned again for the same answer.
 *
 * @example
 * ```ts
 * import { ok } from 'neverthrow'
 * import { settledResultAsync } from 'patkit/store'
 *
 * const found = settledResultAsync(ok(null)) // what findByDigestWithUser answers for an unknown digest
 * await found // ok(null), as okAsync(null) would be
 * ```
 */
export function settledResultAsync<T, E = never>(result: Result<T, E>): ResultAsync<T, E> {
  return new SettledResultAsync(result)
}

/**
 * The result of a `ResultAsync` made by {@link settledResultAsync}, or `undefined` for any other
 * (its result is known only once awaited).
 *
 * @example
 * ```ts
 * import { ok, okAsync } from 'neverthrow'
 * import { settledResult, settledResultAsync } from 'patkit/store'
 *
 * settledResult(settledResultAsync(ok(1)))?.isOk() // true
 * settledResult(okAsync(1)) // undefined
 * ```
 */
export function settledResult<T, E>(value: ResultAsync<T, E>): Result<T, E> | undefined {
  return value instanceof SettledResultAsync ? (value.settled as Result<T, E>) : undefined
}
