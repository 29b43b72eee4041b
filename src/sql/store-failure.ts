import { storeConflict, storeFailure } from '../domain/error-constructors.js'
import type { StoreConflictKey, StoreFailure } from '../domain/errors.js'

/**
 * Thrown by a write that violated a unique key once it knows which (the driver's errors name an index,
 * differently per dialect; a read after the violation says which key is held): `toStoreFailure` turns
 * it into a `store_failure` whose `conflict` is that key.
 */
export class StoreConflictError extends Error {
  readonly key: StoreConflictKey

  constructor(key: StoreConflictKey, message: string, cause: unknown) {
    super(message, { cause })
    this.name = 'StoreConflictError'
    this.key = key
  }
}

/**
 * The error mapper for `ResultAsync.fromPromise`: whatever a driver rejected with (a lost connection,
 * a violated constraint, a timeout) becomes a `store_failure` naming the operation, with the driver's
 * error as `cause`; a {@link StoreConflictError} also names the key in `conflict`.
 */
export function toStoreFailure(operation: string): (cause: unknown) => StoreFailure {
  return (cause) =>
    cause instanceof StoreConflictError
      ? storeConflict(operation, cause.key, cause)
      : storeFailure(operation, cause)
}

/**
 * Attempts of a transaction that lost a race (deadlock, serialization failure) before giving up.
 */
const TRANSACTION_ATTEMPTS = 16

/**
 * Runs a transaction again when it failed with an error the dialect calls retryable: the database
 * rolled it back because it raced another transaction, so nothing of it persists and a new attempt
 * sees the winner's writes. Any other error, or the last attempt's, is rethrown.
 */
export async function retrying<T>(
  run: () => Promise<T>,
  isRetryable: (error: unknown) => boolean,
  attempts: number = TRANSACTION_ATTEMPTS,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run()
    } catch (error) {
      if (attempt >= attempts || !isRetryable(error)) throw error
    }
  }
}
