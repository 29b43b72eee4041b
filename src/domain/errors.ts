/**
 * Stable codes of every expected failure in patkit. Match on `error.type` against these constants;
 * the strings never change within a major version.
 *
 * @example
 * ```ts
 * import { ErrorType } from 'patkit'
 *
 * const result = await authority.rotate(principal, 7)
 * if (result.isErr() && result.error.type === ErrorType.AlreadyRevoked) console.log('rotated already')
 * ```
 */
export const ErrorType = {
  /** The token to rotate is already revoked (GitLab: "Token already revoked"). */
  AlreadyRevoked: 'already_revoked',
  /** An `expires_at` outside the allowed window. */
  InvalidExpiry: 'invalid_expiry',
  /** A request parameter is missing, malformed or not one of the allowed values. */
  InvalidParameter: 'invalid_parameter',
  /** A model rule failed, e.g. a description longer than 255 characters. */
  ValidationFailed: 'validation_failed',
  /** No token was presented, or the presented token is unknown. */
  Unauthenticated: 'unauthenticated',
  /** The presented token is expired. */
  TokenExpired: 'token_expired',
  /** The presented token is revoked. */
  TokenRevoked: 'token_revoked',
  /** The presented token lacks the scope the operation needs. */
  InsufficientScope: 'insufficient_scope',
  /**
   * A fine-grained token lacks the permissions the operation needs at its boundary, or the operation
   * takes no fine-grained token at all (GitLab answers 403 `insufficient_granular_scope`).
   */
  InsufficientGranularScope: 'insufficient_granular_scope',
  /** The caller may not see or act on the target (GitLab answers 401). */
  Unauthorized: 'unauthorized',
  /** The caller is authenticated but the operation is reserved to others (GitLab answers 403). */
  Forbidden: 'forbidden',
  /** The target does not exist (or is hidden as such). */
  NotFound: 'not_found',
  /** The operation was refused (GitLab answers a bare 400). */
  BadRequest: 'bad_request',
  /** The feature does not exist in the emulated GitLab release. */
  FeatureUnavailable: 'feature_unavailable',
  /** The storage backend failed; the operation had no effect. */
  StoreFailure: 'store_failure',
  /**
   * `self` was addressed by a principal that carries no token (a session principal from `asUser`):
   * address the token by its id. Never answered over HTTP, where every principal has a token.
   */
  NoToken: 'no_token',
  /**
   * The route does not serve this kind of caller: a resource access token's `self/rotate` presented
   * with a human's token (GitLab answers 405).
   */
  MethodNotAllowed: 'method_not_allowed',
  /** The operation conflicts with the target's state (GitLab answers 409 with `message`). */
  Conflict: 'conflict',
  /** A secret carries no token prefix patkit knows (GitLab's admin token API: 422). */
  UnsupportedTokenType: 'unsupported_token_type',
  /** GitLab's admin token API does not revoke this kind of token (a service account's). */
  UnsupportedRevocation: 'unsupported_revocation',
} as const

/**
 * One of the {@link ErrorType} codes.
 *
 * @example
 * ```ts
 * import type { ErrorCode } from 'patkit'
 * const code: ErrorCode = 'already_revoked'
 * ```
 */
export type ErrorCode = (typeof ErrorType)[keyof typeof ErrorType]

// What a `not_found` error says is missing; each has GitLab's own 404 message.
export type NotFoundEntity =
  | 'token'
  | 'user'
  | 'project'
  | 'group'
  | 'project_access_token'
  | 'group_access_token'
  | 'personal_access_token'

/**
 * Why Grape refuses a parameter (see the `invalid_parameter` error).
 */
export type InvalidParameterReason =
  | 'missing'
  | 'invalid'
  | 'not_allowed_value'
  | 'excluded_value'
  | 'all_or_none'
  | 'mutually_exclusive'
  | 'exactly_one'
  | 'unknown'

/**
 * Every expected failure, as data. Discriminate on `type`.
 *
 * @example
 * ```ts
 * import type { PatkitError } from 'patkit'
 * function describe(e: PatkitError): string {
 *   switch (e.type) {
 *     case 'already_revoked': return `token ${e.tokenId} was already revoked`
 *     default: return e.type
 *   }
 * }
 * ```
 */
export type PatkitError =
  | { readonly type: 'already_revoked'; readonly tokenId: number }
  | { readonly type: 'invalid_expiry'; readonly message: string }
  | {
      readonly type: 'invalid_parameter'
      readonly parameter: string
      /**
       * `missing`: absent; `invalid`: wrong type or format; `not_allowed_value`: not in the allowed
       * set; `excluded_value`: a value explicitly refused (GitLab's `per_page=0`); `all_or_none`: some
       * of parameters that go together are missing (`parameter` names them all, `a, b`);
       * `mutually_exclusive`, `exactly_one`: Grape's `exactly_one_of` (both given, neither given);
       * `unknown`: a body parameter the route does not declare (`<name> is not a known parameter`).
       */
      readonly reason: InvalidParameterReason
      /**
       * Further failures of the same request, in Grape's order, when there are several: Grape reports
       * them together (`name is missing, scopes is missing`).
       */
      readonly further?: readonly {
        readonly parameter: string
        readonly reason: InvalidParameterReason
      }[]
    }
  | { readonly type: 'validation_failed'; readonly message: string }
  | {
      readonly type: 'unauthenticated'
      /**
       * Why, for `authority.verify` (the HTTP answer is the same 401 for all): `missing` (no secret),
       * `malformed` (a routable token's tail with a wrong checksum), `unknown` (no such token),
       * `user_inactive` (its user is gone or blocked). Absent when no reason is known.
       */
      readonly reason?: UnauthenticatedReason
    }
  | { readonly type: 'token_expired'; readonly tokenId: number }
  | { readonly type: 'token_revoked'; readonly tokenId: number }
  | { readonly type: 'insufficient_scope'; readonly required: readonly string[] }
  /**
   * `boundary` `null` and `missing` empty: the operation takes no fine-grained token; else the
   * permissions (assignable names) the token lacks at that boundary, sorted.
   */
  | {
      readonly type: 'insufficient_granular_scope'
      readonly boundary: 'user' | 'instance' | 'project' | 'group' | null
      readonly missing: readonly string[]
    }
  | { readonly type: 'unauthorized' }
  /** `reason` is GitLab's text after `403 Forbidden - `, when it gives one. */
  | { readonly type: 'forbidden'; readonly reason?: string }
  /** `reference`: the user as a request named them (`sudo`), when GitLab's message repeats it. */
  | { readonly type: 'not_found'; readonly entity: NotFoundEntity; readonly reference?: string }
  | { readonly type: 'bad_request'; readonly reason?: string }
  | { readonly type: 'feature_unavailable'; readonly feature: string; readonly release: string }
  | {
      readonly type: 'store_failure'
      readonly operation: string
      readonly cause: unknown
      /**
       * The unique key the write collided with, when that is why it failed (see {@link StoreConflictKey}):
       * a caller that chose the key at random (a secret, a bot's username) draws again.
       */
      readonly conflict?: StoreConflictKey
    }
  | { readonly type: 'no_token' }
  | { readonly type: 'method_not_allowed' }
  | { readonly type: 'conflict'; readonly message: string }
  | { readonly type: 'unsupported_token_type' }
  /** `kind`: the kind of the token found (`TokenKind` of `patkit/authority`). */
  | { readonly type: 'unsupported_revocation'; readonly kind: string }

/**
 * A unique key of the store that a write can collide with: a token's `digest`, a token's `id`, a
 * token's predecessor (`previous_id`: a token has one successor), a user's `username` (in any case).
 * A store says which in `StoreFailure.conflict`, so a caller can tell "taken" from any other failure.
 *
 * @example
 * ```ts
 * import type { StoreConflictKey } from 'patkit/store'
 * const key: StoreConflictKey = 'digest'
 * ```
 */
export type StoreConflictKey = 'digest' | 'id' | 'previous_id' | 'username'

/**
 * Why a secret did not authenticate anyone (see `unauthenticated` in {@link PatkitError}).
 *
 * @example
 * ```ts
 * import type { UnauthenticatedReason } from 'patkit/authority'
 * const reason: UnauthenticatedReason = 'malformed'
 * ```
 */
export type UnauthenticatedReason = 'missing' | 'malformed' | 'unknown' | 'user_inactive'

/**
 * The error of one code, e.g. `ErrorOf<'already_revoked'>`.
 *
 * @example
 * ```ts
 * import type { ErrorOf } from 'patkit'
 * const e: ErrorOf<'already_revoked'> = { type: 'already_revoked', tokenId: 3 }
 * ```
 */
export type ErrorOf<T extends ErrorCode> = Extract<PatkitError, { type: T }>

/**
 * A storage failure: the driver threw, the connection dropped, a constraint was violated where none
 * should be. The operation had no effect. The one definition every store, the store port and the
 * authority use.
 *
 * @example
 * ```ts
 * import type { StoreFailure } from 'patkit/store'
 * const e: StoreFailure = { type: 'store_failure', operation: 'insert', cause: new Error('ECONNRESET') }
 * ```
 */
export type StoreFailure = ErrorOf<'store_failure'>
