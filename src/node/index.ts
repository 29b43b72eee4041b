/**
 * patkit/node: patkit on `node:http` (and what speaks it: Express, a hijacked Fastify reply). GitLab's
 * API as a request listener, a `Request`/`Response` translator for any web-standard handler, and a
 * guard for the application's own routes. Its declarations name `node:http` types, which is why this
 * is not in `patkit/http`: that entry point declares none, for edge runtimes.
 * @packageDocumentation
 */
export { createNodeListener } from './create-node-listener.js'
export { type NodeListener, toNodeListener } from './node-listener.js'
export { type TokenListener, withToken } from './with-token.js'
