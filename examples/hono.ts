// patkit inside a Hono application on Node (@hono/node-server). Run it with `npx tsx examples/hono.ts`:
//   curl -s -H "PRIVATE-TOKEN: glpat-example-alice-secret-1" http://127.0.0.1:3000/api/v4/personal_access_tokens/self
//   curl -s -H "PRIVATE-TOKEN: glpat-example-alice-secret-1" http://127.0.0.1:3000/me
//
// In your own project: import { createHandler } from 'patkit/http'
//                      import { requireToken } from 'patkit/hono'
import type { Server } from 'node:http'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { requireToken } from '../src/hono/index.js'
import { createHandler } from '../src/http/index.js'
import { demoAuthority, ME_SCOPES } from './demo-authority.js'
import { runIfMain, type Started, started } from './listen.js'

/** The Hono app: patkit under /api/v4, the application's own routes beside it. */
export async function createApp(): Promise<Hono> {
  const authority = await demoAuthority()
  const handler = createHandler(authority, { basePath: '/api/v4' })
  const app = new Hono()
  // Both speak Request/Response: the raw request goes through untouched, body stream included (as
  // long as no earlier middleware read it), and patkit's Response is Hono's answer.
  app.all('/api/v4/*', (c) => handler(c.req.raw))
  app.get('/health', (c) => c.json({ ok: true }))
  // The application's own route, for tokens with a read scope: one call, and `c.var.principal` is
  // typed in the handler.
  app.get('/me', requireToken({ authority, scopes: ME_SCOPES, realm: 'patkit example' }), (c) => {
    const { user, token } = c.var.principal
    return c.json({ username: user.username, scopes: token.scopes })
  })
  return app
}

/** Serves the Hono app on 127.0.0.1; port 0 picks a free port. */
export async function start(port = 0): Promise<Started> {
  const app = await createApp()
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, () => resolve(s as Server))
    s.once('error', reject)
  })
  return started(server)
}

await runIfMain(import.meta.url, start)
