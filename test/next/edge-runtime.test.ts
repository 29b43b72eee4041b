import { isBuiltin } from 'node:module'
import { join } from 'node:path'
import { EdgeVM } from '@edge-runtime/vm'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'

// Runs against dist/, which `npm test` builds first (the `pretest` script). A Next.js route protected by
// patkit/next, bundled for a browser-like platform as Next.js bundles an edge route, then run in
// Vercel's edge runtime VM (no Node.js globals or modules): the authority, its memory store and the
// guard together.
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

/** The route bundled as an edge route is, or the Node.js modules that keep it from bundling so. */
async function bundle(): Promise<{ code: string } | { nodeModules: string[] }> {
  try {
    const result = await build({
      stdin: { contents: ROUTE, resolveDir: root, sourcefile: 'route.ts', loader: 'ts' },
      bundle: true,
      write: false,
      platform: 'browser',
      format: 'iife',
      globalName: 'edgeRoute',
      logLevel: 'silent',
    })
    return { code: result.outputFiles[0]?.text ?? '' }
  } catch (e) {
    const errors = (e as { errors?: { text: string }[] }).errors ?? []
    const nodeModules = errors.flatMap((error) => {
      const name = /Could not resolve "([^"]+)"/.exec(error.text)?.[1]
      return name !== undefined && isBuiltin(name) ? [name] : []
    })
    if (nodeModules.length === 0) throw e
    return { nodeModules }
  }
}

describe('patkit/next on an edge runtime', async () => {
  const bundled = await bundle()
  // The guard itself loads no Node.js module (test/package/node-free.test.ts); until the core draws its
  // randomness and digests through Web Crypto, the authority it needs does, and the route cannot bundle.
  const reason = 'nodeModules' in bundled ? `the core still imports ${bundled.nodeModules.join(', ')}` : ''
  it.skipIf(reason !== '')(`a protected route answers 200 and 401 in the edge VM ${reason}`, async () => {
    if (!('code' in bundled)) return
    const vm = new EdgeVM()
    vm.evaluate(bundled.code)
    const outcome = (await vm.evaluate('edgeRoute.run()')) as { ok: unknown[]; none: unknown[] }
    expect(outcome.ok).toEqual([200, '{"username":"alice"}'])
    expect(outcome.none).toEqual([401, 'Bearer realm="edge"', '{"message":"401 Unauthorized"}'])
  })
})
