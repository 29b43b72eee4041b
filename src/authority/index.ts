// The authority barrel: internal (patkit's own tests import it). The package's entry points (src/index.ts,
// src/store/index.ts, ...) each export a chosen few of these names.
export { type AsUserError, USER_BLOCKED } from './as-user.js'
export type { AuthenticateError, AuthenticateOptions } from './authenticate.js'
export type { AuthorityConfig } from './config.js'
export type { CreateError, CreateRequest } from './create.js'
export {
  type Authority,
  AuthorityConfigError,
  createAuthority,
  DEFAULT_LAST_USED_THROTTLE_MS,
} from './create-authority.js'
export type { CurrentUserError } from './current-user.js'
export {
  DEPRECATIONS,
  type Deprecation,
  type DeprecationId,
  isRemoved,
  removedBy,
} from './deprecations.js'
export { type AuthorityEvent, type TokenInfo, toTokenInfo } from './events.js'
export { type ExpiryNotices, type ExpiryNoticesOptions, expiryNotices } from './expiry-notices.js'
export type { FindUserError } from './find-user.js'
export {
  type FindUsersError,
  USERS_FILTER_FLAGS,
  type UsersFilterFlag,
  type UsersQuery,
} from './find-users.js'
export type { GetError } from './get-token.js'
export type {
  ImpersonationCreateRequest,
  ImpersonationError,
  ImpersonationListRequest,
  ImpersonationState,
} from './impersonation-tokens.js'
export { type InstanceMetadata, instanceMetadata, PATKIT_REVISION } from './instance-metadata.js'
export type { IssueError, IssueTokenInput } from './issue-token.js'
export type { IssuedToken } from './issued-token.js'
export type { ListError, ListRequest, TokenPage } from './list-tokens.js'
export type { Actor, Principal, SessionPrincipal, TokenRef } from './principal.js'
export {
  compareReleases,
  FEATURES,
  type Feature,
  hasFeature,
  LATEST_RELEASE,
  parseRelease,
  type Release,
} from './release.js'
export type { ReplayError } from './replay-rotation.js'
export { DEFAULT_ROTATION_REPLAY_WINDOW_MS } from './replay-window.js'
export type { RevokeError } from './revoke.js'
export type { RotateError, RotateOptions, RotationIdempotency } from './rotate.js'
export type { SudoError } from './sudo.js'
export {
  type Verification,
  VerifyCode,
  type VerifyFailureCode,
  type VerifyOptions,
} from './verify.js'
