/**
 * patkit/http: GitLab's personal access token API as a web-standard handler.
 *
 * @example
 * ```ts
 * import { createHandler, createNodeListener, toNodeListener } from 'patkit/http'
 * ```
 * @packageDocumentation
 */
export type { ClientIpResolver, ClientIpSource } from './client-ip.js'
export { createHandler, type Handler, type HandlerOptions } from './create-handler.js'
export { createNodeListener } from './create-node-listener.js'
export { type ErrorContext, errorResponse } from './error-response.js'
export { type NodeListener, toNodeListener } from './node-listener.js'
export { DEFAULT_BODY_LIMIT } from './request-body.js'
export { type TokenJson, type TokenWithIpsJson, tokenJson, tokenWithIpsJson } from './token-json.js'
export { type UserEntity, type UserJsonOptions, userJson, userWebBase } from './user-json.js'
