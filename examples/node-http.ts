// patkit on plain node:http. Run it with `npx tsx examples/node-http.ts`, then:
//   curl -s -H "PRIVATE-TOKEN: glpat-example-alice-secret-1" http://127.0.0.1:3000/api/v4/personal_access_tokens/self
//
// In your own project: import { createHandler, toNodeListener } from 'patkit/http'
import { createServer } from 'node:http'
import { createHandler, toNodeListener } from '../src/http/index.js'
import { demoAuthority } from './demo-authority.js'
import { listen, runIfMain, type Started } from './listen.js'

/** Serves the demo authority on 127.0.0.1; port 0 picks a free port. */
export async function start(port = 0): Promise<Started> {
  const handler = createHandler(await demoAuthority(), { basePath: '/api/v4' })
  // The handler answers 404 JSON for anything outside /api/v4, so it can own the whole server.
  return listen(createServer(toNodeListener(handler)), port)
}

await runIfMain(import.meta.url, start)
