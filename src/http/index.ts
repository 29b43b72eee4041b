/**
 * patkit/http: GitLab's personal access token API as a web-standard handler.
 * @packageDocumentation
 */
export { authenticateRequest, type GuardOptions } from './authenticate-request.js'
export type { ClientIpResolver, ClientIpSource } from './client-ip.js'
export { createHandler, type Handler, type HandlerOptions } from './create-handler.js'
export type { CredentialSource } from './credentials.js'
export { type ErrorContext, errorResponse } from './error-response.js'
export type { HookTester, HookTestResult } from './hook-test-routes.js'
export type { BoundaryOption } from './permission-guard.js'
export { DEFAULT_BODY_LIMIT } from './request-body.js'
export type { ResourceOption, ResourceRequirement } from './resource-guard.js'
export {
  type GranularScopeJson,
  type TokenJson,
  type TokenWithIpsJson,
  tokenJson,
  tokenWithIpsJson,
} from './token-json.js'
export { type UserEntity, type UserJsonOptions, userJson, userWebBase } from './user-json.js'
