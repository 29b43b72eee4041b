import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { ROUTES } from '../../src/http/routes.js'
import { findPython } from '../e2e/support/python.js'
import { cli, root } from './support/cli-process.js'

// docs/testing.md, "Testing a renewal bot: expiry webhooks": the shell recipe runs as printed, with
// this checkout's dist/cli.js as $PATKIT, and its receiver prints the 7-day notice; the pytest recipe
// runs as printed too, and its bot renews the token on that notice. Skipped without
// curl or python3 (a failure then with PATKIT_REQUIRE_E2E=1), and until the hooks API
// (POST /projects/:id/hooks) is served: the recipe creates its hook with it.

const docs = readFileSync(join(root, 'docs', 'testing.md'), 'utf8')
const HEADING = '\n## Testing a renewal bot: expiry webhooks\n'
const dir = mkdtempSync(join(tmpdir(), 'patkit-webhook-recipe-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function recipe(language = 'sh'): string {
  const at = docs.indexOf(HEADING)
  expect(at).toBeGreaterThan(0)
  const section = docs.slice(at, docs.indexOf('\n## ', at + 1))
  const blocks = [...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].filter((m) => m[1] === language)
  expect(blocks).toHaveLength(1)
  return blocks[0]?.[2] ?? ''
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(command, args, { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let text = ''
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      text += chunk.toString()
    })
    child.once('exit', (exit) => resolve({ code: exit, output: text }))
  })
}

const hooksApi = ROUTES.some((row) => row.method === 'POST' && row.path === '/projects/:id/hooks')

it('the expiry webhook recipe receives the 7-day notice', { timeout: 30_000 }, async (ctx) => {
  const missing = ['curl', 'python3'].filter((tool) => spawnSync(tool, ['--version']).status !== 0)
  if (missing.length > 0) {
    if (process.env['PATKIT_REQUIRE_E2E'] === '1')
      throw new Error(`${missing.join(', ')} missing (PATKIT_REQUIRE_E2E=1)`)
    return ctx.skip(`no ${missing.join(', ')}`)
  }
  // The recipe creates its hook over the API: the row must be there, never a silent skip.
  expect(hooksApi).toBe(true)
  writeFileSync(join(dir, 'recipe.sh'), recipe())
  const { code, output } = await run('bash', ['recipe.sh'], { ...process.env, PATKIT: cli })
  const lines = output.split('\n')
  const notice = lines.find((l) => l.startsWith('Resource Access Token Hook '))
  const body = JSON.parse(notice?.slice('Resource Access Token Hook '.length) ?? 'null') as {
    event_name?: string
    interval?: string
    object_attributes?: { id?: number }
  } | null
  expect(
    {
      code,
      status: lines.includes('200 seven_days'),
      event: body?.event_name,
      interval: body?.interval,
      token: body?.object_attributes?.id,
    },
    output,
  ).toEqual({ code: 0, status: true, event: 'expiring_access_token', interval: 'seven_days', token: 2 })
})

it('the pytest recipe passes as printed: the bot renews the token on the 7-day notice', {
  timeout: 60_000,
}, async (ctx) => {
  const found = findPython(['pytest'], 'python3-pytest')
  if ('reason' in found) {
    if (process.env['PATKIT_REQUIRE_E2E'] === '1') throw new Error(`PATKIT_REQUIRE_E2E=1 but ${found.reason}`)
    console.warn(`skipped: ${found.reason}`)
    return ctx.skip(found.reason)
  }
  const code = recipe('python')
  expect(code.match(/^def test_/gm)).toHaveLength(1)
  writeFileSync(join(dir, 'test_renewal_bot.py'), code)
  const { PYTEST_ADDOPTS: _, ...env } = process.env
  const result = await run(
    found.python,
    ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'test_renewal_bot.py'],
    {
      ...env,
      PATKIT: cli,
      PYTHONDONTWRITEBYTECODE: '1',
    },
  )
  expect({ code: result.code, summary: result.output.trimEnd().split('\n').at(-1) }, result.output).toEqual({
    code: 0,
    summary: expect.stringMatching(/^1 passed in [\d.]+s/),
  })
})
