import type { ErrorOf, StoreFailure, UnauthenticatedReason } from './errors.js'

// One constructor per error code, so a use case says `notFound('token')` and the union member's shape
// is written here once. Optional fields are left out when absent (never `reason: undefined`): the HTTP
// layer and callers tell "no reason" by the key's absence.

/**
 * `not_found`: the token or user does not exist (or is hidden as such).
 *
 * @example
 * ```ts
 * import { notFound } from './error-constructors.js'
 *
 * notFound('token') // { type: 'not_found', entity: 'token' }
 * ```
 */
export function notFound(entity: 'token' | 'user'): ErrorOf<'not_found'> {
  return { type: 'not_found', entity }
}

/**
 * `forbidden` (GitLab's 403), with GitLab's text after `403 Forbidden - ` when it gives one.
 *
 * @example
 * ```ts
 * import { forbidden } from './error-constructors.js'
 *
 * forbidden() // { type: 'forbidden' }
 * forbidden('Not authorized!') // { type: 'forbidden', reason: 'Not authorized!' }
 * ```
 */
export function forbidden(reason?: string): ErrorOf<'forbidden'> {
  return reason === undefined ? { type: 'forbidden' } : { type: 'forbidden', reason }
}

/**
 * `unauthorized`: the caller may not see or act on the target (GitLab's 401).
 *
 * @example
 * ```ts
 * import { unauthorized } from './error-constructors.js'
 *
 * unauthorized() // { type: 'unauthorized' }
 * ```
 */
export function unauthorized(): ErrorOf<'unauthorized'> {
  return { type: 'unauthorized' }
}

/**
 * `unauthenticated`: no token was presented, or the presented one is unknown or its owner unusable.
 *
 * @example
 * ```ts
 * import { unauthenticated } from './error-constructors.js'
 *
 * unauthenticated('unknown') // { type: 'unauthenticated', reason: 'unknown' }
 * ```
 */
export function unauthenticated(reason?: UnauthenticatedReason): ErrorOf<'unauthenticated'> {
  return reason === undefined ? { type: 'unauthenticated' } : { type: 'unauthenticated', reason }
}

/**
 * `no_token`: `self` addressed by a principal without a token (a session principal).
 *
 * @example
 * ```ts
 * import { noToken } from './error-constructors.js'
 *
 * noToken() // { type: 'no_token' }
 * ```
 */
export function noToken(): ErrorOf<'no_token'> {
  return { type: 'no_token' }
}

/**
 * `bad_request` (GitLab's bare 400), with a reason when there is one to tell.
 *
 * @example
 * ```ts
 * import { badRequest } from './error-constructors.js'
 *
 * badRequest() // { type: 'bad_request' }
 * ```
 */
export function badRequest(reason?: string): ErrorOf<'bad_request'> {
  return reason === undefined ? { type: 'bad_request' } : { type: 'bad_request', reason }
}

/**
 * `already_revoked`: the token to rotate is revoked already.
 *
 * @example
 * ```ts
 * import { alreadyRevoked } from './error-constructors.js'
 *
 * alreadyRevoked(7) // { type: 'already_revoked', tokenId: 7 }
 * ```
 */
export function alreadyRevoked(tokenId: number): ErrorOf<'already_revoked'> {
  return { type: 'already_revoked', tokenId }
}

/**
 * `token_expired`: the presented token is expired.
 *
 * @example
 * ```ts
 * import { tokenExpired } from './error-constructors.js'
 *
 * tokenExpired(7) // { type: 'token_expired', tokenId: 7 }
 * ```
 */
export function tokenExpired(tokenId: number): ErrorOf<'token_expired'> {
  return { type: 'token_expired', tokenId }
}

/**
 * `token_revoked`: the presented token is revoked.
 *
 * @example
 * ```ts
 * import { tokenRevoked } from './error-constructors.js'
 *
 * tokenRevoked(7) // { type: 'token_revoked', tokenId: 7 }
 * ```
 */
export function tokenRevoked(tokenId: number): ErrorOf<'token_revoked'> {
  return { type: 'token_revoked', tokenId }
}

/**
 * `insufficient_scope`: the presented token has none of the scopes that allow the operation.
 *
 * @example
 * ```ts
 * import { insufficientScope } from './error-constructors.js'
 *
 * insufficientScope(['api']) // { type: 'insufficient_scope', required: ['api'] }
 * ```
 */
export function insufficientScope(required: readonly string[]): ErrorOf<'insufficient_scope'> {
  return { type: 'insufficient_scope', required }
}

/**
 * `feature_unavailable`: the feature does not exist in the emulated release.
 *
 * @example
 * ```ts
 * import { featureUnavailable } from './error-constructors.js'
 *
 * featureUnavailable('self_rotate', '16.9') // { type: 'feature_unavailable', feature: 'self_rotate', release: '16.9' }
 * ```
 */
export function featureUnavailable(feature: string, release: string): ErrorOf<'feature_unavailable'> {
  return { type: 'feature_unavailable', feature, release }
}

/**
 * `invalid_parameter`: a request parameter is missing, malformed or not one of the allowed values.
 *
 * @example
 * ```ts
 * import { invalidParameter } from './error-constructors.js'
 *
 * invalidParameter('scopes', 'not_allowed_value')
 * ```
 */
export function invalidParameter(
  parameter: string,
  reason: ErrorOf<'invalid_parameter'>['reason'],
): ErrorOf<'invalid_parameter'> {
  return { type: 'invalid_parameter', parameter, reason }
}

/**
 * `validation_failed`: a model rule failed; `message` is GitLab's sentence.
 *
 * @example
 * ```ts
 * import { validationFailed } from './error-constructors.js'
 *
 * validationFailed("Name can't be blank")
 * ```
 */
export function validationFailed(message: string): ErrorOf<'validation_failed'> {
  return { type: 'validation_failed', message }
}

/**
 * `store_failure`: the storage backend failed in `operation`; `cause` is what it threw.
 *
 * @example
 * ```ts
 * import { storeFailure } from './error-constructors.js'
 *
 * storeFailure('insert', new Error('ECONNRESET'))
 * ```
 */
export function storeFailure(operation: string, cause: unknown): StoreFailure {
  return { type: 'store_failure', operation, cause }
}
