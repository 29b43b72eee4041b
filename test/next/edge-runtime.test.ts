import { join } from 'node:path'
import { EdgeVM } from '@edge-runtime/vm'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'

// Runs against dist/, which `npm test` builds first (the `pretest` script). A Next.js route protected by
// patkit/next, bundled for a browser-like platform, then run in Vercel's edge runtime VM (no Node.js
// globals or modules): the authority, its memory store and the guard together. The VM has no `process`
// at all, where Next.js's own edge sandbox has one whose functions throw: next-build.test.ts builds
// and serves such a route with Next.js itself.
const root = join(import.meta.dirname, '..', '..')

const ROUTE = `
import { createAuthority } from 'patkit'
import { memoryStore } from 'patkit/memory'
import { withToken } from 'patkit/next'

export async function run() {
  const authority = createAuthority({
    store: memoryStore({ users: [{ id: 2, username: 'alice', admin: false, blocked: false }] }),
    pepper: 'edge-pepper',
  })
  const issued = await authority.issueToken({ userId: 2, name: 'edge', scopes: ['read_api'] })
  if (issued.isErr()) throw new Error(issued.error.type)
  const GET = withToken(
    async (_request, _context, principal) => Response.json({ username: principal.user.username }),
    { authority, scopes: ['read_api'], realm: 'edge' },
  )
  const context = { params: Promise.resolve({}) }
  const ok = await GET(new Request('https://edge.test/me', { headers: { 'PRIVATE-TOKEN': issued.value.secret } }), context)
  const none = await GET(new Request('https://edge.test/me'), context)
  return {
    ok: [ok.status, await ok.text()],
    none: [none.status, none.headers.get('www-authenticate'), await none.text()],
  }
}
`

/** The route bundled as Next.js bundles an edge route: for a browser-like platform, no Node.js module. */
async function bundle(): Promise<string> {
  const result = await build({
    stdin: { contents: ROUTE, resolveDir: root, sourcefile: 'route.ts', loader: 'ts' },
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'iife',
    globalName: 'edgeRoute',
    logLevel: 'silent',
  })
  return result.outputFiles[0]?.text ?? ''
}

describe('patkit/next on an edge runtime', () => {
  it('a protected route answers 200 and 401 in the edge VM, with the authority and a memory store', async () => {
    const vm = new EdgeVM()
    vm.evaluate(await bundle())
    const outcome = (await vm.evaluate('edgeRoute.run()')) as { ok: unknown[]; none: unknown[] }
    expect(outcome.ok).toEqual([200, '{"username":"alice"}'])
    expect(outcome.none).toEqual([401, 'Bearer realm="edge"', '{"message":"401 Unauthorized"}'])
  })
})
