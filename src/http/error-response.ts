import type { ErrorOf, PatkitError } from '../domain/errors.js'
import { permissionLabels } from '../domain/gitlab-permission-labels.js'
import { error, json, message, type Reply, toResponse } from './responses.js'

/**
 * The realm of GitLab's `WWW-Authenticate` challenges: rack-oauth2's default, which GitLab's API guard
 * never overrides in its error responses (lib/api/api_guard.rb, `oauth2_bearer_token_error_handler`).
 */
export const GITLAB_REALM = 'Protected by OAuth 2.0'

const EXPIRED = 'Token is expired. You can either do re-authorization or token refresh.'
const REVOKED = 'Token was revoked. You have to re-authorize from the user.'
const INSUFFICIENT = 'The request requires higher privileges than provided by the access token.'

/** An RFC 6750 error of a Bearer challenge (section 3.1), with GitLab's descriptions. */
export interface BearerError {
  readonly error: 'invalid_token' | 'insufficient_scope'
  readonly description?: string
  readonly scope?: string
}

/**
 * The `WWW-Authenticate` value of a Bearer challenge, in rack-oauth2's form (`Bearer realm="...",
 * error="...", error_description="..."`), plus RFC 6750's `scope` attribute for `insufficient_scope`.
 * Without an error it is the bare challenge RFC 6750 asks for when a request has no credentials.
 */
export function bearerChallenge(realm: string, bearerError?: BearerError): string {
  let header = `Bearer realm="${quoted(realm)}"`
  if (bearerError === undefined) return header
  header += `, error="${bearerError.error}"`
  if (bearerError.description !== undefined) header += `, error_description="${bearerError.description}"`
  if (bearerError.scope !== undefined) header += `, scope="${bearerError.scope}"`
  return header
}

/** The content of a quoted-string (RFC 9110, 5.6.4): `"` and `\` escaped. */
function quoted(text: string): string {
  return text.replace(/["\\]/g, '\\$&')
}

/**
 * The RFC 6750 error GitLab's API guard reports for a patkit error, if it is one of its token errors:
 * expired and revoked tokens (`invalid_token`, GitLab's descriptions) and a missing scope
 * (`insufficient_scope`, the allowed scopes joined by spaces).
 */
export function bearerErrorOf(e: PatkitError): BearerError | undefined {
  switch (e.type) {
    case 'token_expired':
      return { error: 'invalid_token', description: EXPIRED }
    case 'token_revoked':
      return { error: 'invalid_token', description: REVOKED }
    case 'insufficient_scope':
      return { error: 'insufficient_scope', description: INSUFFICIENT, scope: e.required.join(' ') }
    default:
      return undefined
  }
}

const PARAMETER_REASONS = {
  missing: 'is missing',
  invalid: 'is invalid',
  not_allowed_value: 'does not have a valid value',
  excluded_value: 'has a value not allowed',
  all_or_none: 'provide all or none of parameters',
  // Grape's exactly_one_of (`scopes, granular_scopes are mutually exclusive`).
  mutually_exclusive: 'are mutually exclusive',
  exactly_one: 'are missing, exactly one parameter must be provided',
  unknown: 'is not a known parameter',
} as const

/**
 * Where an error happened, when the same error has different bodies on different routes (GitLab's
 * revoke-by-id answers `404 Not found` through ActiveRecord, the users API `404 User Not Found`:
 * `create` for token creation under `/users`, `users` for `GET /users` and `GET /users/:id`).
 *
 * @example
 * ```ts
 * import { type ErrorContext, errorResponse } from 'patkit/http'
 *
 * const context: ErrorContext = 'revoke_by_id'
 * const response = errorResponse({ type: 'not_found', entity: 'token' }, context) // 404 Not found
 * ```
 */
export type ErrorContext = 'default' | 'revoke_by_id' | 'create' | 'users'

// GitLab's `not_found!(...)` names: `"#{source_type} Access Token"` keeps the source type lower-case.
const NOT_FOUND_NAMES = {
  project: 'Project',
  group: 'Group',
  project_access_token: 'project Access Token',
  group_access_token: 'group Access Token',
  personal_access_token: 'Personal Access Token',
} as const

function invalidToken(description: string): Reply {
  return json(
    401,
    { error: 'invalid_token', error_description: description },
    { 'www-authenticate': bearerChallenge(GITLAB_REALM, { error: 'invalid_token', description }) },
  )
}

/**
 * GitLab's newest texts (app/services/authz/tokens/authorize_granular_scopes_service.rb, commit
 * 276ecd5b; fine-grained-pats.md §0): the permissions as their labels, de-duplicated and sorted.
 */
function granularDenial(e: ErrorOf<'insufficient_granular_scope'>): string {
  if (e.boundary === null || e.missing.length === 0) {
    return "Access denied: This operation doesn't support fine-grained personal access tokens."
  }
  return (
    'Access denied: This operation requires a fine-grained personal access token with the following ' +
    `${e.boundary} permissions: [${permissionLabels(e.missing).join(', ')}].`
  )
}

/**
 * Maps a patkit error to GitLab's status code and exact body.
 *
 * @example
 * ```ts
 * import { errorResponse } from 'patkit/http'
 * errorResponse({ type: 'already_revoked', tokenId: 1 }) // 400 {"message":"400 Bad request - Token already revoked"}
 * ```
 */
export function errorResponse(e: PatkitError, context: ErrorContext = 'default'): Response {
  return toResponse(errorReply(e, context))
}

/** {@link errorResponse} as a {@link Reply}, for the handler: the error goes with it as its `refusal`. */
export function errorReply(e: PatkitError, context: ErrorContext = 'default'): Reply {
  return { ...answerOf(e, context), refusal: e }
}

function answerOf(e: PatkitError, context: ErrorContext): Reply {
  switch (e.type) {
    case 'unauthenticated':
    case 'unauthorized':
      return message(401, '401 Unauthorized')
    case 'token_expired':
      return invalidToken(EXPIRED)
    case 'token_revoked':
      return invalidToken(REVOKED)
    case 'insufficient_scope':
      return json(403, {
        error: 'insufficient_scope',
        error_description: INSUFFICIENT,
        scope: e.required.join(' '),
      })
    case 'insufficient_granular_scope':
      return json(403, { error: 'insufficient_granular_scope', error_description: granularDenial(e) })
    case 'forbidden':
      return message(403, e.reason === undefined ? '403 Forbidden' : `403 Forbidden - ${e.reason}`)
    case 'not_found':
      if (e.entity === 'user' && e.reference !== undefined) {
        return message(404, `404 User with ID or username '${e.reference}' Not Found`)
      }
      if (e.entity === 'user' && (context === 'create' || context === 'users')) {
        return message(404, '404 User Not Found')
      }
      if (e.entity !== 'token' && e.entity !== 'user')
        return message(404, `404 ${NOT_FOUND_NAMES[e.entity]} Not Found`)
      return message(404, context === 'revoke_by_id' ? '404 Not found' : '404 Not Found')
    case 'feature_unavailable':
      return error(404, '404 Not Found')
    case 'no_token':
      // Only a session principal (asUser) gets it, and the HTTP binding never makes one.
      return message(400, '400 Bad request')
    case 'bad_request':
      return message(400, e.reason === undefined ? '400 Bad request' : `400 Bad request - ${e.reason}`)
    case 'already_revoked':
      return message(400, '400 Bad request - Token already revoked')
    case 'validation_failed':
    case 'invalid_expiry':
      // Token creation answers a model error (the expiry's too) as GitLab's users API does:
      // `render_api_error!` with the model's messages and 422, without the `400 Bad request - `
      // prefix. Rotation answers them through `bad_request!`.
      if (context === 'create') return message(422, e.message)
      return message(400, `400 Bad request - ${e.message}`)
    case 'invalid_parameter':
      return error(
        400,
        [e, ...(e.further ?? [])].map((p) => `${p.parameter} ${PARAMETER_REASONS[p.reason]}`).join(', '),
      )
    case 'method_not_allowed':
      return message(405, '405 Method Not Allowed')
    case 'conflict':
      return message(409, e.message)
    // GitLab's admin token API: an ArgumentError it answers 422; an error it does not rescue (500).
    case 'unsupported_token_type':
      return message(422, 'Token type not supported.')
    case 'unsupported_revocation':
    case 'store_failure':
      return message(500, '500 Internal Server Error')
  }
}
