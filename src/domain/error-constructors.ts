import type {
  ErrorOf,
  NotFoundEntity,
  StoreConflictKey,
  StoreFailure,
  UnauthenticatedReason,
} from './errors.js'

// One constructor per error code, so a use case says `notFound('token')` and the union member's shape
// is written here once. Optional fields are left out when absent (never `reason: undefined`): the HTTP
// layer and callers tell "no reason" by the key's absence.

/** `not_found`: the token or user does not exist (or is hidden as such). */
export function notFound(entity: NotFoundEntity): ErrorOf<'not_found'> {
  return { type: 'not_found', entity }
}

/** `forbidden` (GitLab's 403), with GitLab's text after `403 Forbidden - ` when it gives one. */
export function forbidden(reason?: string): ErrorOf<'forbidden'> {
  return reason === undefined ? { type: 'forbidden' } : { type: 'forbidden', reason }
}

/** `unauthorized`: the caller may not see or act on the target (GitLab's 401). */
export function unauthorized(): ErrorOf<'unauthorized'> {
  return { type: 'unauthorized' }
}

/**
 * `unauthenticated`: no token was presented, or the presented one is unknown or its owner unusable.
 */
export function unauthenticated(reason?: UnauthenticatedReason): ErrorOf<'unauthenticated'> {
  return reason === undefined ? { type: 'unauthenticated' } : { type: 'unauthenticated', reason }
}

/** `no_token`: `self` addressed by a principal without a token (a session principal). */
export function noToken(): ErrorOf<'no_token'> {
  return { type: 'no_token' }
}

/** `bad_request` (GitLab's bare 400), with a reason when there is one to tell. */
export function badRequest(reason?: string): ErrorOf<'bad_request'> {
  return reason === undefined ? { type: 'bad_request' } : { type: 'bad_request', reason }
}

/** `already_revoked`: the token to rotate is revoked already. */
export function alreadyRevoked(tokenId: number): ErrorOf<'already_revoked'> {
  return { type: 'already_revoked', tokenId }
}

/** `token_expired`: the presented token is expired. */
export function tokenExpired(tokenId: number): ErrorOf<'token_expired'> {
  return { type: 'token_expired', tokenId }
}

/** `token_revoked`: the presented token is revoked. */
export function tokenRevoked(tokenId: number): ErrorOf<'token_revoked'> {
  return { type: 'token_revoked', tokenId }
}

/** `insufficient_scope`: the presented token has none of the scopes that allow the operation. */
export function insufficientScope(required: readonly string[]): ErrorOf<'insufficient_scope'> {
  return { type: 'insufficient_scope', required }
}

/**
 * `insufficient_granular_scope`: a fine-grained token lacks `missing` at `boundary`; `null` and none
 * for an operation that takes no fine-grained token.
 */
export function insufficientGranularScope(
  boundary: ErrorOf<'insufficient_granular_scope'>['boundary'],
  missing: readonly string[],
): ErrorOf<'insufficient_granular_scope'> {
  return { type: 'insufficient_granular_scope', boundary, missing }
}

/** `feature_unavailable`: the feature does not exist in the emulated release. */
export function featureUnavailable(feature: string, release: string): ErrorOf<'feature_unavailable'> {
  return { type: 'feature_unavailable', feature, release }
}

/** `invalid_parameter`: a request parameter is missing, malformed or not one of the allowed values. */
export function invalidParameter(
  parameter: string,
  reason: ErrorOf<'invalid_parameter'>['reason'],
): ErrorOf<'invalid_parameter'> {
  return { type: 'invalid_parameter', parameter, reason }
}

/** `validation_failed`: a model rule failed; `message` is GitLab's sentence. */
export function validationFailed(message: string): ErrorOf<'validation_failed'> {
  return { type: 'validation_failed', message }
}

/** `store_failure`: the storage backend failed in `operation`; `cause` is what it threw. */
export function storeFailure(operation: string, cause: unknown): StoreFailure {
  return { type: 'store_failure', operation, cause }
}

/** A `store_failure` because the write met a row holding the same unique `key`. */
export function storeConflict(operation: string, key: StoreConflictKey, cause: unknown): StoreFailure {
  return { type: 'store_failure', operation, cause, conflict: key }
}

/** `conflict` (GitLab's `conflict!`, 409): the target's state forbids the operation; `message` says why. */
export function conflict(message: string): ErrorOf<'conflict'> {
  return { type: 'conflict', message }
}
