/**
 * patkit/next: protect a Next.js App Router route handler with a personal access token, on the Node.js
 * and the edge runtimes. Next.js is an optional peer dependency; GitLab's own API mounts as a catch-all
 * route with `createHandler` from `patkit/http`.
 * @packageDocumentation
 */
export { type TokenRouteHandler, withToken } from './with-token.js'
