// patkit on plain node:http. Run it with `npx tsx examples/node-http.ts`, then:
//   curl -s -H "PRIVATE-TOKEN: glpat-example-alice-secret-1" http://127.0.0.1:3000/api/v4/personal_access_tokens/self
//
// In your own project: import { createNodeListener } from 'patkit/node'
import { createServer } from 'node:http'
import { createNodeListener } from '../src/node/index.js'
import { demoAuthority } from './demo-authority.js'
import { listen, runIfMain, type Started } from './listen.js'

/** Serves the demo authority on 127.0.0.1; port 0 picks a free port. */
export async function start(port = 0): Promise<Started> {
  // The listener answers 404 JSON for anything outside /api/v4, so it can own the whole server.
  const listener = createNodeListener(await demoAuthority(), { basePath: '/api/v4' })
  return listen(createServer(listener), port)
}

await runIfMain(import.meta.url, start)
