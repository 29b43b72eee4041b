import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { CONTROL_OPENAPI } from '../../src/control/openapi.js'
import { findPython } from './support/python.js'

// docs/testing.md, "Controlling the fake over HTTP": the reference names every route of the control
// API's OpenAPI document, and the pytest and Go recipes run as printed, in a scratch project whose
// node_modules/.bin/patkit is this checkout's dist/cli.js. The pytest recipe is skipped without a
// python3 that has pytest (a failure with PATKIT_REQUIRE_E2E=1); the Go one without a Go toolchain,
// which CI does not install (no PATKIT_REQUIRE_E2E for it).

const root = join(import.meta.dirname, '..', '..')
const CLI = join(root, 'dist', 'cli.js')
const docs = readFileSync(join(root, 'docs', 'testing.md'), 'utf8')
const section = docs.slice(
  docs.indexOf('## Controlling the fake over HTTP'),
  docs.indexOf('\n## ', docs.indexOf('## Controlling the fake over HTTP') + 1),
)
const required = process.env['PATKIT_REQUIRE_E2E'] === '1'
const RUN_TIMEOUT_MS = 120_000

function codeBlock(language: string): string {
  const blocks = [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].filter((m) => m[1] === language)
  expect(blocks, `one ${language} block in the section`).toHaveLength(1)
  return blocks[0]?.[2] ?? ''
}

const scratch: string[] = []
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true })
})

// A directory where `node_modules/.bin/patkit` (and so `npx patkit`) runs this checkout's build.
function project(): string {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build it first (npx tsup; npm test does)`)
  const dir = mkdtempSync(join(tmpdir(), 'patkit-docs-'))
  scratch.push(dir)
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true })
  symlinkSync(CLI, join(dir, 'node_modules', '.bin', 'patkit'))
  return dir
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    // The recipes' servers have a piped stdin: they go when the killed runner's pipe closes.
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS)
    child.once('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })
}

describe('docs/testing.md: Controlling the fake over HTTP', () => {
  it('the reference names every route of /__patkit/openapi.json', () => {
    const routes = Object.entries(CONTROL_OPENAPI.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `\`${method.toUpperCase()} ${path}\``),
    )
    expect(routes.length).toBeGreaterThanOrEqual(17)
    expect(routes.filter((route) => !section.includes(`| ${route}`))).toEqual([])
  })

  it('the pytest recipe passes as printed', async (ctx) => {
    const found = findPython(['pytest'], 'python3-pytest')
    if ('reason' in found) {
      if (required) throw new Error(`PATKIT_REQUIRE_E2E=1 but ${found.reason}`)
      console.warn(`skipped: ${found.reason}`)
      ctx.skip(found.reason)
      return
    }
    const dir = project()
    writeFileSync(join(dir, 'test_recipe.py'), codeBlock('python'))
    const tests = codeBlock('python').match(/^def test_/gm)?.length ?? 0
    const { PYTEST_ADDOPTS: _, ...env } = process.env
    const { code, output } = await run(found.python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], dir, {
      ...env,
      PYTHONDONTWRITEBYTECODE: '1',
    })
    expect(tests).toBe(2)
    expect({ code, summary: output.trimEnd().split('\n').at(-1) }, output).toEqual({
      code: 0,
      summary: expect.stringMatching(new RegExp(`^${tests} passed in [\\d.]+s`)),
    })
  }, 150_000)

  it('the Go recipe passes as printed (go test, npx patkit serve)', async (ctx) => {
    const go = spawnSync('go', ['version'], { encoding: 'utf8', timeout: 30_000 })
    if (go.status !== 0) {
      const reason = `no Go toolchain to run the Go recipe (go version: ${go.error?.message ?? go.stderr.trim()})`
      console.warn(`skipped: ${reason}`)
      ctx.skip(reason)
      return
    }
    const dir = project()
    const code = codeBlock('go')
    writeFileSync(join(dir, 'gitlab_test.go'), code)
    writeFileSync(join(dir, 'go.mod'), 'module example.com/gitlab\n\ngo 1.19\n')
    // The seed the recipe's comment prints, as its test reads it.
    const comment = /^\/\/ testdata\/seed\.json: ((?:.*\n)(?:\/\/ .*\n)*)/m.exec(code)?.[1] ?? ''
    const seed = JSON.parse(comment.replace(/\n\/\/ /g, ' ')) as unknown
    mkdirSync(join(dir, 'testdata'))
    writeFileSync(join(dir, 'testdata', 'seed.json'), JSON.stringify(seed))
    const result = await run('go', ['test', '-count=1', './...'], dir, {
      ...process.env,
      GOTOOLCHAIN: 'local',
    })
    expect(result, result.output).toMatchObject({ code: 0, output: expect.stringMatching(/^ok\s/m) })
  }, 150_000)
})
