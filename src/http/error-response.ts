import type { PatkitError } from '../domain/errors.js'
import { error, json, message, type Reply, toResponse } from './responses.js'

const REALM = 'Protected by OAuth 2.0'

const EXPIRED = 'Token is expired. You can either do re-authorization or token refresh.'
const REVOKED = 'Token was revoked. You have to re-authorize from the user.'
const INSUFFICIENT = 'The request requires higher privileges than provided by the access token.'

const PARAMETER_REASONS = {
  missing: 'is missing',
  invalid: 'is invalid',
  not_allowed_value: 'does not have a valid value',
  excluded_value: 'has a value not allowed',
  all_or_none: 'provide all or none of parameters',
} as const

/**
 * Where an error happened, when the same error has different bodies on different routes (GitLab's
 * revoke-by-id answers `404 Not found` through ActiveRecord, the users API `404 User Not Found`:
 * `create` for token creation under `/users`, `users` for `GET /users` and `GET /users/:id`).
 */
export type ErrorContext = 'default' | 'revoke_by_id' | 'create' | 'users'

function invalidToken(description: string): Reply {
  return json(
    401,
    { error: 'invalid_token', error_description: description },
    {
      'www-authenticate': `Bearer realm="${REALM}", error="invalid_token", error_description="${description}"`,
    },
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

/** {@link errorResponse} as a {@link Reply}, for the handler. */
export function errorReply(e: PatkitError, context: ErrorContext = 'default'): Reply {
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
    case 'forbidden':
      return message(403, e.reason === undefined ? '403 Forbidden' : `403 Forbidden - ${e.reason}`)
    case 'not_found':
      if (e.entity === 'user' && e.reference !== undefined) {
        return message(404, `404 User with ID or username '${e.reference}' Not Found`)
      }
      if (e.entity === 'user' && (context === 'create' || context === 'users')) {
        return message(404, '404 User Not Found')
      }
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
    case 'store_failure':
      return message(500, '500 Internal Server Error')
  }
}
