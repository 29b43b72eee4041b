/**
 * patkit/authority: the authority's vocabulary beyond the root entry `patkit`. The option and request
 * types of its methods (`ListRequest`, `CreateRequest`, `RotateOptions`, ...), the codes inside its
 * answers (`USER_BLOCKED`, `UnauthenticatedReason`, `VerifyFailureCode`), the defaults of its options
 * with the production clock and random source, and `expiryNotices`, GitLab's expiry mails as events.
 * Each method's errors are `AuthorityError<'method'>` from `patkit`.
 * @packageDocumentation
 */

export { systemClock } from '../domain/clock.js'
export type { UnauthenticatedReason } from '../domain/errors.js'
export type { TokenFormat } from '../domain/mint-secret.js'
export { cryptoRandom } from '../domain/random.js'
export type {
  AdminTokenError,
  AdminTokenMethods,
  AdminTokenRequestError,
  IdentifiedToken,
  TokenKind,
  TokenParameter,
} from './admin-tokens.js'
export { USER_BLOCKED } from './as-user.js'
export type { AuthenticateOptions } from './authenticate.js'
export type { IssuedResourceToken } from './bot-token.js'
export type { CreateRequest } from './create.js'
export { DEFAULT_LAST_USED_THROTTLE_MS } from './create-authority.js'
export { type ExpiryNotices, type ExpiryNoticesOptions, expiryNotices } from './expiry-notices.js'
export type { UsersFilterFlag, UsersQuery } from './find-users.js'
export type {
  ImpersonationCreateRequest,
  ImpersonationListRequest,
  ImpersonationState,
} from './impersonation-tokens.js'
export type { IssueResourceTokenInput } from './issue-resource-token.js'
export type { IssueTokenInput } from './issue-token.js'
export type { ListRequest } from './list-tokens.js'
export { DEFAULT_ROTATION_REPLAY_WINDOW_MS } from './replay-window.js'
export type { RequestCredentials } from './request-principal.js'
export type { ResourceAddress, ResourceToken } from './resource-token-access.js'
export type { ResourceTokenRequest } from './resource-token-create.js'
export type { ResourceRotation } from './resource-token-rotate.js'
export type { ResourceTokenMethods, ResourceTokenPage } from './resource-tokens.js'
export type { ResourceView, ResourceViewError } from './resource-views.js'
export type { RotateOptions, RotationIdempotency } from './rotate.js'
export type { RequestRotation, RotateRequest } from './rotate-request.js'
export type { GroupAssociation, ProjectAssociation, TokenAssociations } from './token-associations.js'
export type { VerifyFailureCode, VerifyOptions } from './verify.js'
