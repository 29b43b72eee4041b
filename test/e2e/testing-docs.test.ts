import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { CONTROL_OPENAPI } from '../../src/fake/control/control-routes.js'
import { findPython } from './support/python.js'

// docs/testing.md: the reference names every route of the control API's OpenAPI document, and the
// recipes of "`patkit serve` from any language" and "Controlling the fake over HTTP" (shell, both
// pytest ones, Go) run as printed in a fresh folder with no node_modules: the recipes start the
// executable $PATKIT names, else `patkit` on the PATH, and each way is exercised (this checkout's
// dist/cli.js). A recipe whose toolchain is missing (python3 with pytest, curl, Go) is skipped, and is
// a failure with PATKIT_REQUIRE_E2E=1, as in CI (.ci/run installs python3-pytest, curl and golang-go).

const root = join(import.meta.dirname, '..', '..')
const CLI = join(root, 'dist', 'cli.js')
const docs = readFileSync(join(root, 'docs', 'testing.md'), 'utf8')

function sectionOf(heading: string): string {
  const at = docs.indexOf(`\n${heading}\n`)
  if (at < 0) throw new Error(`docs/testing.md has no section ${heading}`)
  const next = docs.indexOf('\n## ', at + 1)
  return docs.slice(at, next < 0 ? undefined : next)
}
const anyLanguage = sectionOf('## `patkit serve` from any language')
const section = sectionOf('## Controlling the fake over HTTP')
const required = process.env['PATKIT_REQUIRE_E2E'] === '1'
const RUN_TIMEOUT_MS = 120_000

function codeBlock(text: string, language: string): string {
  const blocks = [...text.matchAll(/```(\w+)\n([\s\S]*?)```/g)].filter((m) => m[1] === language)
  expect(blocks, `one ${language} block in the section`).toHaveLength(1)
  return blocks[0]?.[2] ?? ''
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

// A fresh folder, as a Python or Go project has it: no node_modules, no patkit in it.
function project(): string {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: build it first (npx tsup; npm test does)`)
  return tempDir('patkit-docs-')
}

// The environment of a recipe run: with PATKIT naming the built CLI, or without PATKIT and with a
// folder holding a `patkit` link to it first on the PATH.
function recipeEnv(how: 'PATKIT' | 'PATH'): NodeJS.ProcessEnv {
  const { PATKIT: _, PYTEST_ADDOPTS: __, ...env } = process.env
  if (how === 'PATKIT') return { ...env, PATKIT: CLI }
  const bin = tempDir('patkit-bin-')
  symlinkSync(CLI, join(bin, 'patkit'))
  return { ...env, PATH: `${bin}${delimiter}${env['PATH'] ?? ''}` }
}

function skipOrFail(ctx: { skip: (note?: string) => void }, reason: string) {
  if (required) throw new Error(`PATKIT_REQUIRE_E2E=1 but ${reason}`)
  console.warn(`skipped: ${reason}`)
  ctx.skip(reason)
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
    // The recipes' servers have a piped stdin: they go when the killed runner's pipe closes.
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS)
    child.once('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })
}

describe('docs/testing.md: the recipes for patkit serve', () => {
  it('the reference names every route of /__patkit/openapi.json', () => {
    const routes = Object.entries(CONTROL_OPENAPI.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `\`${method.toUpperCase()} ${path}\``),
    )
    expect(routes.length).toBeGreaterThanOrEqual(17)
    expect(routes.filter((route) => !section.includes(`| ${route}`))).toEqual([])
  })

  it('no recipe needs a node_modules folder where it runs', () => {
    const recipes = [
      codeBlock(anyLanguage, 'sh'),
      codeBlock(anyLanguage, 'python'),
      codeBlock(section, 'python'),
      codeBlock(section, 'go'),
    ]
    expect(recipes.filter((code) => /\bnpx\b|["(]\s*node_modules\//.test(code))).toEqual([])
  })

  it('the shell recipe runs as printed (patkit from $PATKIT)', async (ctx) => {
    const curl = spawnSync('curl', ['--version'], { encoding: 'utf8', timeout: 30_000 })
    if (curl.status !== 0) return skipOrFail(ctx, 'no curl to run the shell recipe (apt-get install curl)')
    const dir = project()
    writeFileSync(join(dir, 'recipe.sh'), codeBlock(anyLanguage, 'sh'))
    const { code, output } = await run('bash', ['recipe.sh'], dir, recipeEnv('PATKIT'))
    expect({ code, self: /"name":"ci"/.test(output) }, output).toEqual({ code: 0, self: true })
  }, 150_000)

  it('both pytest recipes pass as printed (patkit from the PATH)', async (ctx) => {
    const found = findPython(['pytest'], 'python3-pytest')
    if ('reason' in found) return skipOrFail(ctx, found.reason)
    const dir = project()
    const recipes = {
      'test_serve.py': codeBlock(anyLanguage, 'python'),
      'test_control.py': codeBlock(section, 'python'),
    }
    for (const [file, code] of Object.entries(recipes)) writeFileSync(join(dir, file), code)
    const tests = Object.values(recipes).map((code) => code.match(/^def test_/gm)?.length ?? 0)
    expect(tests).toEqual([1, 2])
    const { code, output } = await run(found.python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], dir, {
      ...recipeEnv('PATH'),
      PYTHONDONTWRITEBYTECODE: '1',
    })
    expect({ code, summary: output.trimEnd().split('\n').at(-1) }, output).toEqual({
      code: 0,
      summary: expect.stringMatching(/^3 passed in [\d.]+s/),
    })
  }, 150_000)

  it('the Go recipe passes as printed (go test, patkit from $PATKIT)', async (ctx) => {
    const go = spawnSync('go', ['version'], { encoding: 'utf8', timeout: 30_000 })
    if (go.status !== 0) {
      return skipOrFail(
        ctx,
        `no Go toolchain to run the Go recipe (apt-get install golang-go; go version: ${go.error?.message ?? go.stderr.trim()})`,
      )
    }
    const dir = project()
    const code = codeBlock(section, 'go')
    writeFileSync(join(dir, 'gitlab_test.go'), code)
    writeFileSync(join(dir, 'go.mod'), 'module example.com/gitlab\n\ngo 1.19\n')
    // The seed the recipe's comment prints, as its test reads it.
    const comment = /^\/\/ testdata\/seed\.json: ((?:.*\n)(?:\/\/ .*\n)*)/m.exec(code)?.[1] ?? ''
    const seed = JSON.parse(comment.replace(/\n\/\/ /g, ' ')) as unknown
    mkdirSync(join(dir, 'testdata'))
    writeFileSync(join(dir, 'testdata', 'seed.json'), JSON.stringify(seed))
    const result = await run('go', ['test', '-count=1', './...'], dir, {
      ...recipeEnv('PATKIT'),
      GOTOOLCHAIN: 'local',
    })
    expect(result, result.output).toMatchObject({ code: 0, output: expect.stringMatching(/^ok\s/m) })
  }, 150_000)
})
