import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { findPython } from './support/python.js'

// docs/testing.md, "Outages: a 429, a lost answer, 503 then normal": the pytest recipe runs as printed
// in a fresh folder with `patkit` (this checkout's dist/cli.js) first on the PATH. Skipped without
// python3 and pytest, a failure then with PATKIT_REQUIRE_E2E=1, as in CI.

const root = join(import.meta.dirname, '..', '..')
const CLI = join(root, 'dist', 'cli.js')
const docs = readFileSync(join(root, 'docs', 'testing.md'), 'utf8')
const HEADING = '## Outages: a 429, a lost answer, 503 then normal'
const required = process.env['PATKIT_REQUIRE_E2E'] === '1'

function section(): string {
  const at = docs.indexOf(`\n${HEADING}\n`)
  if (at < 0) throw new Error(`docs/testing.md has no section ${HEADING}`)
  const next = docs.indexOf('\n## ', at + 1)
  return docs.slice(at, next < 0 ? undefined : next)
}

const scratch: string[] = []
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true })
})
function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  scratch.push(dir)
  return dir
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000)
    child.once('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })
}

describe('docs/testing.md: the outage recipes', () => {
  it('the pytest recipe passes as printed: a 429, a lost rotation answer, 503-503-then-normal', async (ctx) => {
    const found = findPython(['pytest'], 'python3-pytest')
    if ('reason' in found) {
      if (required) throw new Error(`PATKIT_REQUIRE_E2E=1 but ${found.reason}`)
      console.warn(`skipped: ${found.reason}`)
      ctx.skip(found.reason)
      return
    }
    if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build it first (npx tsup; npm test does)`)
    const blocks = [...section().matchAll(/```(\w+)\n([\s\S]*?)```/g)].filter((m) => m[1] === 'python')
    expect(blocks).toHaveLength(1)
    const code = blocks[0]?.[2] ?? ''
    expect(code.match(/^def test_/gm)).toHaveLength(3)
    const dir = tempDir('patkit-outages-')
    writeFileSync(join(dir, 'test_outages.py'), code)
    const bin = tempDir('patkit-bin-')
    symlinkSync(CLI, join(bin, 'patkit'))
    const { PATKIT: _, PYTEST_ADDOPTS: __, ...env } = process.env
    const result = await run(found.python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], dir, {
      ...env,
      PATH: `${bin}${delimiter}${env['PATH'] ?? ''}`,
      PYTHONDONTWRITEBYTECODE: '1',
    })
    expect({ code: result.code, summary: result.output.trimEnd().split('\n').at(-1) }, result.output).toEqual(
      {
        code: 0,
        summary: expect.stringMatching(/^3 passed in [\d.]+s/),
      },
    )
  }, 150_000)
})
