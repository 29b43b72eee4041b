import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { checkExamples, collectExamples, type Example } from './examples-typecheck.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
// One Program over every example and the sources they import: seconds, more on a busy machine.
const COMPILE_TIMEOUT_MS = 120_000

describe('every code example type-checks against the public entry points (docs/development.md)', () => {
  const { examples, bare } = collectExamples(root)

  it('every @example of src has a ```ts block', () => {
    expect(bare.map((f) => `${f.file}:${f.line}: ${f.message}`)).toEqual([])
  })

  it(
    'the JSDoc @example blocks of src/ and the ts blocks of README.md and docs/ compile',
    () => {
      // A floor, so a broken extractor cannot pass by finding nothing (examples sit on public exports
      // only: example-placement.test.ts).
      expect(examples.filter((e) => e.from === 'jsdoc').length).toBeGreaterThan(150)
      expect(examples.filter((e) => e.from === 'markdown').length).toBeGreaterThan(15)
      const failures = checkExamples(root, examples)
      expect(failures.map((f) => `${f.file}:${f.line}: ${f.message}`)).toEqual([])
    },
    COMPILE_TIMEOUT_MS,
  )

  it(
    'reports each kind of mistake at its line: a name an entry does not export, a free name, a public name imported relatively, a relative import in docs',
    () => {
      const planted: Example[] = [
        {
          file: 'src/query/pagination.ts',
          line: 10,
          from: 'jsdoc',
          code: "import { pageOffset } from 'patkit'",
        },
        { file: 'src/query/pagination.ts', line: 20, from: 'jsdoc', code: 'const x = 1\nundeclared(x)' },
        {
          file: 'src/authority/create-authority.ts',
          line: 30,
          from: 'jsdoc',
          code: "import { createAuthority } from '../../src/authority/create-authority.js'",
        },
        { file: 'docs/storage.md', line: 40, from: 'markdown', code: "import { x } from './x.js'" },
        {
          file: 'src/query/pagination.ts',
          line: 50,
          from: 'jsdoc',
          code: "import { pageOffset } from './pagination.js'",
        },
      ]
      const failures = checkExamples(root, planted).map(
        (f) => `${f.file}:${f.line}: ${f.message.split(':')[0]}`,
      )
      expect(failures).toEqual(
        expect.arrayContaining([
          'src/query/pagination.ts:10: TS2305',
          'src/query/pagination.ts:21: TS2304',
          'src/authority/create-authority.ts:30: createAuthority is public',
          "docs/storage.md:40: './x.js'",
        ]),
      )
      // The internal helper imported by a relative path is fine.
      expect(failures.filter((f) => f.includes(':50:'))).toEqual([])
    },
    COMPILE_TIMEOUT_MS,
  )
})
