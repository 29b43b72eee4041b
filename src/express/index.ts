/**
 * patkit/express: protect an Express 5 route with a personal access token. Express is an optional peer
 * dependency; GitLab's own API mounts with `createNodeListener` from `patkit/node`.
 * @packageDocumentation
 */
export { MissingPrincipalError } from '../http/missing-principal.js'
export { principalOf, requireToken, type TokenLocals, type TokenMiddleware } from './require-token.js'
