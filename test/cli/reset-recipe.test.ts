import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { findPython } from '../e2e/support/python.js'
import { dropTables, POSTGRES_URL, postgres } from '../sql/support/databases.js'
import { describeDatabase } from '../sql/support/describe-database.js'
import { cli, root } from './support/cli-process.js'

// docs/testing.md, "Reset between tests on PostgreSQL": the shell recipe and the pytest one run as
// printed on PostgreSQL, with this checkout's dist/cli.js as $PATKIT (tables recipe_* and pytest_*).

const docs = readFileSync(join(root, 'docs', 'testing.md'), 'utf8')
const HEADING = '\n## Reset between tests on PostgreSQL\n'

function block(language: string): string {
  const at = docs.indexOf(HEADING)
  const section = docs.slice(at, docs.indexOf('\n## ', at + 1))
  const blocks = [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].filter((m) => m[1] === language)
  expect(blocks).toHaveLength(1)
  return blocks[0]?.[2] ?? ''
}

const dir = mkdtempSync(join(tmpdir(), 'patkit-reset-recipe-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function run(command: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: dir,
      env: { ...process.env, PATKIT: cli, DATABASE_URL: POSTGRES_URL, PYTHONDONTWRITEBYTECODE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.once('exit', (code) => resolve({ code, output }))
  })
}

await describeDatabase(postgres, 'recipe_', (db) => {
  afterAll(() => dropTables(db, 'pytest_'))

  it('the shell recipe runs as printed, twice', { timeout: 60_000 }, async (ctx) => {
    if (spawnSync('curl', ['--version']).status !== 0) return ctx.skip('no curl')
    writeFileSync(join(dir, 'recipe.sh'), block('sh'))
    // The second run meets the first one's tables: the first reset puts the start data back.
    for (const _ of [1, 2]) {
      const { code, output } = await run('bash', ['recipe.sh'])
      expect({ code, active: /"active":true/.test(output) }, output).toEqual({ code: 0, active: true })
    }
  })

  it('the pytest recipe passes as printed, twice', { timeout: 60_000 }, async (ctx) => {
    const found = findPython(['pytest'], 'python3-pytest')
    if ('reason' in found) return ctx.skip(found.reason)
    writeFileSync(join(dir, 'test_reset.py'), block('python'))
    for (const _ of [1, 2]) {
      const { code, output } = await run(found.python, ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'])
      expect({ code, passed: /2 passed/.test(output) }, output).toEqual({ code: 0, passed: true })
    }
  })
})
