// patkit on plain node:http. Run it with `npx tsx examples/node-http.ts`, then:
//   curl -s -H "PRIVATE-TOKEN: glpat-example-alice-secret-1" http://127.0.0.1:3000/api/v4/personal_access_tokens/self
//   curl -s -H "PRIVATE-TOKEN: glpat-example-alice-secret-1" http://127.0.0.1:3000/me
//
// In your own project: import { createNodeListener, withToken } from 'patkit/node'
import { createServer } from 'node:http'
import { createNodeListener, withToken } from '../src/node/index.js'
import { demoAuthority, ME_SCOPES } from './demo-authority.js'
import { listen, runIfMain, type Started } from './listen.js'

/** Serves the demo authority on 127.0.0.1; port 0 picks a free port. */
export async function start(port = 0): Promise<Started> {
  const authority = await demoAuthority()
  // The listener answers 404 JSON for anything outside /api/v4, so it can own the rest of the server.
  const api = createNodeListener(authority, { basePath: '/api/v4' })
  // The application's own route, for tokens with a read scope: one call, and the principal is typed.
  const me = withToken(
    (_req, res, principal) => {
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify({ username: principal.user.username, scopes: principal.token.scopes }))
    },
    { authority, scopes: ME_SCOPES, realm: 'patkit example' },
  )
  const server = createServer((req, res) => {
    if (req.method === 'GET' && new URL(req.url ?? '/', 'http://x').pathname === '/me') me(req, res)
    else api(req, res)
  })
  return listen(server, port)
}

await runIfMain(import.meta.url, start)
