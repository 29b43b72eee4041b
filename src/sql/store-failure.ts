import { storeFailure } from '../domain/error-constructors.js'
import type { StoreFailure } from '../domain/errors.js'

/**
 * The error mapper for `ResultAsync.fromPromise`: whatever a driver rejected with (a lost connection,
 * a violated constraint, a timeout) becomes a `store_failure` naming the operation, with the driver's
 * error as `cause`.
 */
export function toStoreFailure(operation: string): (cause: unknown) => StoreFailure {
  return (cause) => storeFailure(operation, cause)
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
