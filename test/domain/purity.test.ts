import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : []
  })
}

/** Source without comments: JSDoc examples may show `new Date()`, code may not. */
function code(path: string): string {
  return readFileSync(path, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '')
}

const WALL_CLOCK = /\bDate\.now\(|new Date\(\)|performance\.now\(/
const MATH_RANDOM = /\bMath\.random\(/

describe('purity', () => {
  it('no wall-clock read in src outside the injected system clock', () => {
    const offenders = files(join(root, 'src'))
      .filter((f) => !f.endsWith(join('domain', 'clock.ts')))
      .filter((f) => WALL_CLOCK.test(code(f)))
      .map((f) => relative(root, f))
    expect(offenders).toEqual([])
  })

  it('no Math.random in src or test fixtures', () => {
    const offenders = [...files(join(root, 'src')), ...files(join(root, 'test'))]
      .filter((f) => !f.endsWith('purity.test.ts'))
      .filter((f) => MATH_RANDOM.test(code(f)))
      .map((f) => relative(root, f))
    expect(offenders).toEqual([])
  })

  it('the domain does no I/O: it imports nothing but pure libraries (and Node modules only as types)', () => {
    const allowed = new Set(['neverthrow', 'zod', 'date-fns', '@date-fns/utc'])
    for (const f of files(join(root, 'src', 'domain'))) {
      for (const [statement, spec] of code(f).matchAll(/^import .*? from '([^']+)'/gm)) {
        if (spec?.startsWith('.')) continue
        // Edge runtimes have no node:crypto; the domain looks it up at run time (node-crypto.ts).
        if (statement.startsWith('import type ')) continue
        expect(allowed.has(spec as string), `${relative(root, f)} imports ${spec}`).toBe(true)
      }
    }
  })
})
