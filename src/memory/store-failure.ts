import type { StoreFailure } from '../domain/errors.js'

/**
 * A {@link StoreFailure} whose cause is an `Error` naming what went wrong, e.g. the conflicting id.
 *
 * @example
 * ```ts
 * storeFailure('importToken', 'token id 7 is already stored')
 * // { type: 'store_failure', operation: 'importToken', cause: Error('token id 7 is already stored') }
 * ```
 */
export function storeFailure(operation: string, message: string): StoreFailure {
  return { type: 'store_failure', operation, cause: new Error(message) }
}
