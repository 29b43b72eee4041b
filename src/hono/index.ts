/**
 * patkit/hono: protect a Hono route with a personal access token. Hono is an optional peer dependency;
 * GitLab's own API mounts with `createHandler` from `patkit/http` (`app.all('/api/v4/*', (c) =>
 * handler(c.req.raw))`).
 * @packageDocumentation
 */
export { requireToken, type TokenEnv } from './require-token.js'
