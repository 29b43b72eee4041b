import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'

// patkit/fake must work for test suites that do not use vitest (jest, node:test, plain scripts): the
// built package is installed into a folder whose node_modules has patkit's dependencies and its
// required peer dependencies (neverthrow; npm installs those) and nothing else, and a fake authority is
// started there.
const root = join(import.meta.dirname, '..', '..')
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>
  peerDependencies: Record<string, string>
  peerDependenciesMeta: Record<string, { optional?: boolean }>
}
const requiredPeers = Object.keys(pkg.peerDependencies).filter(
  (name) => pkg.peerDependenciesMeta[name]?.optional !== true,
)
const dir = mkdtempSync(join(tmpdir(), 'patkit-no-vitest-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function install(): string {
  const modules = join(dir, 'node_modules')
  mkdirSync(join(modules, 'patkit'), { recursive: true })
  cpSync(join(root, 'package.json'), join(modules, 'patkit', 'package.json'))
  cpSync(join(root, 'dist'), join(modules, 'patkit', 'dist'), { recursive: true })
  for (const name of [...Object.keys(pkg.dependencies), ...requiredPeers]) {
    mkdirSync(join(modules, name, '..'), { recursive: true })
    symlinkSync(join(root, 'node_modules', name), join(modules, name), 'dir')
  }
  return dir
}

const node = (cwd: string, source: string, type: 'module' | 'commonjs') =>
  execFileSync(process.execPath, [`--input-type=${type}`, '-e', source], { cwd, encoding: 'utf8' }).trim()

// Copies the built package and starts two Node processes on it: seconds on a busy machine.
it('patkit/fake starts a fake authority, ESM and CJS, where vitest is not installed', {
  timeout: 30_000,
}, () => {
  // Every framework, database driver and vitest is an optional peer: only neverthrow must be installed.
  expect(requiredPeers).toEqual(['neverthrow'])
  const cwd = install()
  const script = (load: string) => `
    const { createFakeGitLab } = ${load}
    const main = async () => {
      const gitlab = await createFakeGitLab({ tokens: [{ user_id: 2, name: 'ci', scopes: ['api'], token: 'glpat-no-vitest-secret' }] })
      const res = await fetch(gitlab.apiUrl + '/personal_access_tokens/self', { headers: { 'PRIVATE-TOKEN': 'glpat-no-vitest-secret' } })
      gitlab.clock.advance(400 * 86400000)
      const later = await fetch(gitlab.apiUrl + '/personal_access_tokens/self', { headers: { 'PRIVATE-TOKEN': 'glpat-no-vitest-secret' } })
      console.log(res.status, later.status, gitlab.journal.query({ kind: 'request' }).count)
      await gitlab.close()
    }
    main()`
  expect(node(cwd, script("await import('patkit/fake')"), 'module')).toBe('200 401 2')
  expect(node(cwd, script("require('patkit/fake')"), 'commonjs')).toBe('200 401 2')
  // The folder really lacks vitest: the conformance suite's entry cannot load there.
  expect(() => node(cwd, "await import('patkit/testing')", 'module')).toThrow(/vitest/)
})
