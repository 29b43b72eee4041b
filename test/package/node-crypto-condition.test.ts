import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'
import { importTarget } from './import-target.js'

// Runs against dist/, which `npm test` builds first. The built package reaches node:crypto through the
// package import `#node-crypto` (package.json "imports"): Node gets the lookup of node:crypto (the fast
// HMAC the authentication path and bench/ target 1 rely on); an edge runtime, a worker or a browser
// gets code that names no Node API, because Next.js's edge sandbox throws on the lookup itself.

const root = join(import.meta.dirname, '..', '..')

/** What a Node program of this package sees for `#node-crypto`, as ESM and as CJS. */
function nodeSees(): { esm: string; cjs: string; esmHmac: string; cjsHmac: string } {
  const esm = execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "const url = import.meta.resolve('#node-crypto'); const m = await import(url); console.log(JSON.stringify({ url, hmac: typeof m.nodeCrypto?.createHmac }))",
    ],
    { cwd: root, encoding: 'utf8' },
  )
  const cjs = execFileSync(
    process.execPath,
    [
      '-e',
      "const path = require.resolve('#node-crypto'); console.log(JSON.stringify({ path, hmac: typeof require(path).nodeCrypto?.createHmac }))",
    ],
    { cwd: root, encoding: 'utf8' },
  )
  const e = JSON.parse(esm) as { url: string; hmac: string }
  const c = JSON.parse(cjs) as { path: string; hmac: string }
  return { esm: e.url, cjs: c.path, esmHmac: e.hmac, cjsHmac: c.hmac }
}

/** The root entry bundled as a bundler does for a runtime that sets `conditions`. */
async function bundleFor(conditions: string[], platform: 'neutral' | 'node'): Promise<string> {
  const result = await build({
    stdin: { contents: "export * from './dist/index.js'", resolveDir: root, loader: 'js' },
    bundle: true,
    write: false,
    format: 'esm',
    platform,
    conditions,
    mainFields: ['module', 'main'],
    logLevel: 'silent',
  })
  return result.outputFiles[0]?.text ?? ''
}

describe('#node-crypto: node:crypto on Node, nothing of Node elsewhere', () => {
  it('Node resolves it, as ESM and as CJS, to the lookup that finds node:crypto', () => {
    const seen = nodeSees()
    expect(seen.esm).toBe(`file://${join(root, 'dist', 'runtime', 'node-crypto.js')}`)
    expect(seen.cjs).toBe(join(root, 'dist', 'runtime', 'node-crypto.cjs'))
    expect([seen.esmHmac, seen.cjsHmac]).toEqual(['function', 'function'])
  })

  it('a bundle for Node holds the lookup', async () => {
    const code = await bundleFor([], 'node')
    expect(code).toContain('dist/runtime/node-crypto.js')
    expect(code).toMatch(/getBuiltinModule/)
  })

  it.each([
    { name: '"edge-light" (Next.js edge)', conditions: ['edge-light'] },
    { name: '"workerd" (Cloudflare)', conditions: ['workerd'] },
    { name: '"worker"', conditions: ['worker'] },
    { name: '"browser"', conditions: ['browser'] },
    { name: 'none ("default")', conditions: [] },
  ])('a bundle for the condition $name holds the portable side and no lookup', async ({ conditions }) => {
    const code = await bundleFor(conditions, 'neutral')
    expect(code).toContain('dist/runtime/node-crypto-absent.js')
    expect(code).not.toMatch(/getBuiltinModule|node:crypto/)
  })

  it('the map lists the edge conditions before "node" (an edge bundler may set both)', () => {
    const absent = './dist/runtime/node-crypto-absent.js'
    for (const condition of ['edge-light', 'workerd', 'worker', 'browser']) {
      expect(importTarget('#node-crypto', [condition, 'node', 'import'])).toBe(absent)
    }
    expect(importTarget('#node-crypto', ['node', 'import'])).toBe('./dist/runtime/node-crypto.js')
    expect(importTarget('#node-crypto', ['node', 'require'])).toBe('./dist/runtime/node-crypto.cjs')
  })
})
