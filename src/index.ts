/**
 * patkit: an embeddable GitLab personal access token authority. This entry point is what an embedder
 * uses: `createAuthority`, its options and errors, the clocks and random sources it takes, and the
 * token, principal and release types its methods speak. Store authors find the port and the list
 * query helpers in `patkit/store`; test helpers (`manualClock`, `seededRandom`) are in
 * `patkit/testing` and `patkit/fake`.
 *
 * @example
 * ```ts
 * import { createAuthority } from 'patkit'
 * import { memoryStore } from 'patkit/memory'
 * const authority = createAuthority({ store: memoryStore(), pepper: process.env.PATKIT_PEPPER ?? 'dev' })
 * ```
 * @packageDocumentation
 */

export { type AsUserError, USER_BLOCKED } from './authority/as-user.js'
export type { AuthenticateError, AuthenticateOptions } from './authority/authenticate.js'
export type { AuthorityConfig } from './authority/config.js'
export type { CreateError, CreateRequest } from './authority/create.js'
export {
  type Authority,
  AuthorityConfigError,
  createAuthority,
  DEFAULT_LAST_USED_THROTTLE_MS,
} from './authority/create-authority.js'
export type { CurrentUserError } from './authority/current-user.js'
export {
  DEPRECATIONS,
  type Deprecation,
  type DeprecationId,
  isRemoved,
  removedBy,
} from './authority/deprecations.js'
export type { AuthorityEvent, TokenInfo } from './authority/events.js'
export { type ExpiryNotices, type ExpiryNoticesOptions, expiryNotices } from './authority/expiry-notices.js'
export type { FindUserError } from './authority/find-user.js'
export type { FindUsersError, UsersFilterFlag, UsersQuery } from './authority/find-users.js'
export type { GetError } from './authority/get-token.js'
export type {
  ImpersonationCreateRequest,
  ImpersonationError,
  ImpersonationListRequest,
  ImpersonationState,
} from './authority/impersonation-tokens.js'
export { type InstanceMetadata, instanceMetadata } from './authority/instance-metadata.js'
export type { IssueError, IssueTokenInput } from './authority/issue-token.js'
export type { IssuedToken } from './authority/issued-token.js'
export type { ListError, ListRequest, TokenPage } from './authority/list-tokens.js'
export type { Actor, Principal, SessionPrincipal, TokenRef } from './authority/principal.js'
export { FEATURES, type Feature, hasFeature, LATEST_RELEASE, type Release } from './authority/release.js'
export type { ReplayError } from './authority/replay-rotation.js'
export { DEFAULT_ROTATION_REPLAY_WINDOW_MS } from './authority/replay-window.js'
export type { RevokeError } from './authority/revoke.js'
export type { RotateError, RotateOptions, RotationIdempotency } from './authority/rotate.js'
export type { SudoError } from './authority/sudo.js'
export {
  type Verification,
  VerifyCode,
  type VerifyFailureCode,
  type VerifyOptions,
} from './authority/verify.js'
export type { CalendarDate } from './domain/calendar.js'
export { type Clock, systemClock } from './domain/clock.js'
export {
  type ErrorCode,
  type ErrorOf,
  ErrorType,
  type PatkitError,
  type StoreFailure,
  type UnauthenticatedReason,
} from './domain/errors.js'
export type { TokenFormat } from './domain/mint-secret.js'
export { cryptoRandom, type RandomSource } from './domain/random.js'
export { SCOPES, type Scope } from './domain/scopes.js'
// A public function needs one: `loadSeed`'s SeedTarget (patkit/fake, patkit/testing) takes the digester
// of the authority's pepper, to recognize secrets that are already stored.
export { createDigester, type Digester } from './domain/secret.js'
export { isActive, isExpired, type Token } from './domain/token.js'
export { isUserIdOf, MAX_STRING_USER_ID_LENGTH, type UserId, type UserIdType } from './domain/user-id.js'
export type { PageRequest, SortKey, TokenFilter } from './query/filter.js'
export type { Pagination } from './query/pagination.js'
export type { User } from './store/user.js'
