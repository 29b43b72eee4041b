import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

// Runs against dist/, which `npm test` builds first (the `pretest` script).
const root = join(import.meta.dirname, '..', '..')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>
  bin: Record<string, string>
  version: string
}
const subpaths = Object.keys(pkg.exports).filter((p) => p !== './package.json')
// patkit/testing is ESM only (it imports vitest); every other subpath also has a `require` condition.
const requirable = subpaths.filter(
  (p) => typeof pkg.exports[p] === 'object' && 'require' in (pkg.exports[p] as object),
)

function node(args: string[]): string {
  return execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8' })
}

// Each test starts Node processes that import the built package: seconds on a busy machine.
describe('built package', { timeout: 30_000 }, () => {
  it.each(subpaths)('%s imports as ESM by its package name', (subpath) => {
    const specifier = `patkit${subpath.slice(1)}`
    const out = node([
      '--input-type=module',
      '-e',
      `const m = await import('${specifier}'); console.log(Object.keys(m).length)`,
    ])
    expect(Number(out.trim())).toBeGreaterThan(0)
  })

  it('every subpath but ./testing can be required', () => {
    expect(subpaths.filter((p) => !requirable.includes(p))).toEqual(['./testing'])
  })

  it.each(requirable)('%s requires as CJS by its package name', (subpath) => {
    const specifier = `patkit${subpath.slice(1)}`
    const out = node(['-e', `const m = require('${specifier}'); console.log(Object.keys(m).length)`])
    expect(Number(out.trim())).toBeGreaterThan(0)
  })

  it('ESM and CJS builds expose the same names and behave alike', () => {
    const esm = node([
      '--input-type=module',
      '-e',
      "const m = await import('patkit'); const s = await import('patkit/store'); console.log(JSON.stringify([Object.keys(m).sort(), s.createDigester('p')('s'), m.SCOPES.length]))",
    ])
    const cjs = node([
      '-e',
      "const m = require('patkit'); const s = require('patkit/store'); console.log(JSON.stringify([Object.keys(m).sort(), s.createDigester('p')('s'), m.SCOPES.length]))",
    ])
    expect(cjs).toBe(esm)
    expect(JSON.parse(esm)[2]).toBe(19)
  })

  it('the patkit bin prints the package version', () => {
    const bin = pkg.bin['patkit'] as string
    expect(node([bin, '--version']).trim()).toBe(pkg.version)
  })

  it('the patkit bin rejects an unknown command with exit code 2', () => {
    const bin = pkg.bin['patkit'] as string
    expect(() => execFileSync(process.execPath, [bin, 'nope'], { cwd: root, stdio: 'pipe' })).toThrow(
      expect.objectContaining({ status: 2 }),
    )
  })
})
