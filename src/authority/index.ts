/**
 * patkit/authority: the authority's vocabulary beyond the root entry `patkit`. The option and request
 * types of its methods (`ListRequest`, `CreateRequest`, `RotateOptions`, ...), its groups' interfaces
 * (`RequestMethods`, `ImpersonationMethods`, `ResourceTokenMethods`, ...), the codes inside its
 * answers (`USER_BLOCKED`, `UnauthenticatedReason`, `VerifyFailureCode`), the defaults of its options
 * with the production clock and random source, `expiryNotices`, GitLab's expiry mails as events, and
 * fine-grained permissions (`PermissionGrant`, `authorize`).
 * Each method's errors are `AuthorityError<'method'>` from `patkit`.
 * @packageDocumentation
 */

export { systemClock } from '../domain/clock.js'
export type { UnauthenticatedReason } from '../domain/errors.js'
export {
  GRANULAR_ACCESS,
  type GranularAccess,
  type GranularBoundary,
  type GranularScope,
  missingPermissions,
  scopeReaches,
} from '../domain/granular-scope.js'
export type { TokenFormat } from '../domain/mint-secret.js'
export type { PermissionBoundary, PermissionGrant, PermissionTarget } from '../domain/permission-grant.js'
export { cryptoRandom } from '../domain/random.js'
export type {
  AdminTokenError,
  AdminTokenMethods,
  AdminTokenRequestError,
  IdentifiedToken,
  TokenKind,
  TokenParameter,
} from './admin/admin-tokens.js'
export { USER_BLOCKED } from './core/as-user.js'
export type { AuthenticateOptions } from './core/authenticate.js'
export { authorize, type PermissionDenied } from './core/authorize.js'
export type { CreateRequest } from './core/create.js'
export { type ExpiryNotices, type ExpiryNoticesOptions, expiryNotices } from './core/expiry-notices.js'
export type { GranularAccessError, GranularRequirement } from './core/granular-access.js'
export type { ListRequest } from './core/list-tokens.js'
export { DEFAULT_ROTATION_REPLAY_WINDOW_MS } from './core/replay-window.js'
export type { RotateOptions, RotationIdempotency } from './core/rotate.js'
export type { VerifyFailureCode, VerifyOptions } from './core/verify.js'
export { type AuthoritySettings, DEFAULT_LAST_USED_THROTTLE_MS } from './create-authority.js'
export type { AuditError, AuditEventPage, AuditMethods, AuditScope } from './hooks/audit-methods.js'
export type {
  HookError,
  HookLogPage,
  HookLogStatus,
  HookMethods,
  HookRequest,
} from './hooks/hook-methods.js'
export type { ImpersonationMethods } from './impersonation/impersonation-methods.js'
export type {
  ImpersonationCreateRequest,
  ImpersonationListRequest,
  ImpersonationState,
} from './impersonation/impersonation-tokens.js'
export type { IssueTokenInput } from './personal/issue-token.js'
export type { RequestMethods } from './requests/request-methods.js'
export type { RequestCredentials } from './requests/request-principal.js'
export type { RequestRotation, RotateRequest } from './requests/rotate-request.js'
export type { IssuedResourceToken } from './resource/bot-token.js'
export type { IssueResourceTokenInput } from './resource/issue-resource-token.js'
export type { ResourceAddress, ResourceToken } from './resource/resource-token-access.js'
export type { ResourceTokenRequest } from './resource/resource-token-create.js'
export type { ResourceRotation } from './resource/resource-token-rotate.js'
export type { ResourceTokenMethods, ResourceTokenPage } from './resource/resource-tokens.js'
export type { ResourceView, ResourceViewError } from './resource/resource-views.js'
export type { ServiceAccountMethods } from './service-accounts/service-accounts.js'
export type { UsersFilterFlag, UsersQuery } from './users/find-users.js'
export type { GroupAssociation, ProjectAssociation, TokenAssociations } from './users/token-associations.js'
export type { UserMethods } from './users/user-methods.js'
