// patkit inside an Express 5 application. Run it with `npx tsx examples/express.ts`, then:
//   curl -s -H "PRIVATE-TOKEN: glpat-example-alice-secret-1" http://127.0.0.1:3000/api/v4/personal_access_tokens/self
//   curl -s -H "PRIVATE-TOKEN: glpat-example-alice-secret-1" http://127.0.0.1:3000/me
//
// In your own project: import { createNodeListener } from 'patkit/node'
//                      import { requireToken } from 'patkit/express'
import { createServer } from 'node:http'
import express from 'express'
import { requireToken } from '../src/express/index.js'
import { createNodeListener } from '../src/node/index.js'
import { demoAuthority, ME_SCOPES } from './demo-authority.js'
import { listen, runIfMain, type Started } from './listen.js'

/** The Express app: patkit under /api/v4, the application's own routes beside it. */
export async function createApp(): Promise<express.Express> {
  const authority = await demoAuthority()
  const patkit = createNodeListener(authority, { basePath: '/api/v4' })
  const app = express()
  app.disable('x-powered-by')

  // A route, not `app.use('/api/v4', ...)`: `use` strips its mount path from `req.url`, and patkit
  // routes (and builds its Link headers) from the full path. `{*rest}` is Express 5's wildcard.
  //
  // It comes before any body parser: patkit reads the request body itself, as GitLab does (JSON or a
  // form, with its own size limit and its own 400/413/415 bodies). A parser that ran first would have
  // consumed the stream, and patkit would see an empty body: a rotate's `expires_at` would be lost.
  app.all('/api/v4/{*rest}', (req, res) => patkit(req, res))

  // The rest of the application parses JSON as usual.
  app.use(express.json())
  app.post('/echo', (req, res) => {
    res.json({ received: req.body as unknown })
  })

  // The application's own route, for tokens with a read scope: one call, and `res.locals.principal`
  // is typed in the handler.
  app.get('/me', requireToken({ authority, scopes: ME_SCOPES, realm: 'patkit example' }), (_req, res) => {
    const { user, token } = res.locals.principal
    res.json({ username: user.username, scopes: token.scopes })
  })
  return app
}

/** Serves the Express app on 127.0.0.1; port 0 picks a free port. */
export async function start(port = 0): Promise<Started> {
  return listen(createServer(await createApp()), port)
}

await runIfMain(import.meta.url, start)
