import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { EdgeVM } from '@edge-runtime/vm'
import { build } from 'esbuild'
import { beforeAll, describe, expect, it } from 'vitest'
import { createDigester } from '../../src/domain/secret.js'
import { EDGE_CONDITIONS, importTarget } from './import-target.js'

// Runs the BUILT package (dist/, which `npm test` builds first) where edge code runs: Vercel's edge
// runtime VM, a realm with Web APIs (fetch types, streams, Web Crypto) and no `process`, `Buffer` or
// `require`. The three entries an edge route needs are bundled as Next.js bundles an edge route:
// for a neutral platform, so a Node module anywhere in their graph fails the bundle.

const root = join(import.meta.dirname, '..', '..')
const dist = join(root, 'dist')
const EDGE_ENTRIES = ['index.js', 'memory.js', 'http.js']
const PEPPER = 'an edge pepper'

/** Every dist file an entry reaches through static imports, and the bare specifiers they import. A
 * package import (`#node-crypto`) is followed where an edge bundler takes it: `importTarget`. */
function staticGraph(entry: string): { files: string[]; bare: string[] } {
  const files = new Set<string>()
  const bare = new Set<string>()
  const visit = (file: string) => {
    if (files.has(file)) return
    files.add(file)
    const text = readFileSync(file, 'utf8')
    for (const [, spec] of text.matchAll(
      /(?:^|\n)\s*(?:import|export)\s*(?:[^'"]*?\sfrom\s*)?['"]([^'"]+)['"]/g,
    )) {
      if (spec === undefined) continue
      if (spec.startsWith('.')) visit(join(dirname(file), spec))
      else if (spec.startsWith('#')) visit(join(root, importTarget(spec, EDGE_CONDITIONS)))
      else bare.add(spec)
    }
  }
  visit(join(dist, entry))
  return { files: [...files], bare: [...bare] }
}

// The scenario, as edge code would run it: an authority on the memory store, used directly and through
// createHandler's web-standard handler. It answers one JSON string (values cross the realm as text).
const SCENARIO = `(async () => {
  const { createAuthority, memoryStore, createHandler } = patkit
  const out = { runtime: [typeof process, typeof Buffer, typeof require] }
  const store = memoryStore({ users: [{ id: 1, username: 'root', admin: true, blocked: false }] })
  const authority = createAuthority({ store, pepper: ${JSON.stringify(PEPPER)} })
  const issued = (await authority.issueToken({ userId: 1, name: 'edge', scopes: ['api'], expiresAt: '2099-01-01' }))._unsafeUnwrap()
  out.minted = issued.secret
  out.storedDigest = issued.token.digest
  const principal = (await authority.authenticate(issued.secret))._unsafeUnwrap()
  out.authenticated = principal.token.id
  const rotated = (await authority.rotate(principal, 'self', { idempotency: { key: 'k-1', presentedSecret: issued.secret } }))._unsafeUnwrap()
  const replayed = (await authority.requests.replayRotation(issued.secret, 'self', 'k-1'))._unsafeUnwrap()
  out.replayedSame = replayed !== null && replayed.secret === rotated.secret && replayed.token.id === rotated.token.id
  out.oldAfterRotate = (await authority.authenticate(issued.secret))._unsafeUnwrapErr().type

  const handler = createHandler(authority)
  const self = (secret, method = 'GET', path = '') =>
    handler(new Request('https://edge.example/api/v4/personal_access_tokens/self' + path, {
      method, headers: { 'PRIVATE-TOKEN': secret },
    }))
  const got = await self(rotated.secret)
  out.get = [got.status, (await got.json()).id]
  const rotatedOverHttp = await self(rotated.secret, 'POST', '/rotate')
  const third = await rotatedOverHttp.json()
  out.httpRotate = [rotatedOverHttp.status, typeof third.token === 'string' && third.token.startsWith('glpat-')]
  const revoked = await self(third.token, 'DELETE')
  out.revoke = revoked.status
  const after = await self(third.token)
  out.afterRevoke = [after.status, await after.json()]
  const revokedDirect = (await authority.authenticate(third.token))._unsafeUnwrapErr().type
  out.revokedDirect = revokedDirect
  return JSON.stringify(out)
})()`

describe('edge runtimes (patkit, patkit/memory, patkit/http)', () => {
  let bundle = ''

  beforeAll(async () => {
    const result = await build({
      stdin: {
        contents: EDGE_ENTRIES.map((entry) => `export * from './dist/${entry}'`).join('\n'),
        resolveDir: root,
        loader: 'js',
      },
      bundle: true,
      write: false,
      format: 'iife',
      globalName: 'patkit',
      platform: 'neutral',
      mainFields: ['module', 'main'],
      logLevel: 'silent',
    })
    bundle = result.outputFiles[0]?.text ?? ''
  })

  it.each(EDGE_ENTRIES)('dist/%s reaches no node: module through static imports', (entry) => {
    const { files, bare } = staticGraph(entry)
    expect(files.length).toBeGreaterThan(1)
    // Nothing an edge bundle holds looks node:crypto up: Next.js's edge sandbox throws on the lookup.
    for (const file of files) expect(readFileSync(file, 'utf8'), file).not.toMatch(/getBuiltinModule/)
    expect(bare.filter((spec) => spec.startsWith('node:') || !['neverthrow', 'zod'].includes(spec))).toEqual(
      [],
    )
  })

  it('mints, authenticates, rotates with a receipt, serves and revokes in the edge runtime VM', async () => {
    const vm = new EdgeVM()
    vm.evaluate(bundle)
    const out = JSON.parse(await vm.evaluate<Promise<string>>(SCENARIO)) as Record<string, unknown>
    // The realm has none of Node's globals: the portable HMAC and Web Crypto did the work.
    expect(out['runtime']).toEqual(['undefined', 'undefined', 'undefined'])
    // The digest is the one Node computes: a token minted at the edge authenticates on Node, and back.
    expect(out['storedDigest']).toBe(createDigester(PEPPER)(out['minted'] as string))
    expect(out['minted']).toMatch(/^glpat-[A-Za-z0-9_-]+\.01\.[0-9a-z]{9}$/)
    expect(out['authenticated']).toBe(1)
    expect(out['replayedSame']).toBe(true)
    expect(out['oldAfterRotate']).toBe('token_revoked')
    expect(out['get']).toEqual([200, 2])
    expect(out['httpRotate']).toEqual([200, true])
    expect(out['revoke']).toBe(204)
    expect(out['afterRevoke']).toEqual([
      401,
      {
        error: 'invalid_token',
        error_description: 'Token was revoked. You have to re-authorize from the user.',
      },
    ])
    expect(out['revokedDirect']).toBe('token_revoked')
  })
})
