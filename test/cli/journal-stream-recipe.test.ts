import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { cli, root } from './support/cli-process.js'

// docs/testing.md, "Watching the journal live": the shell recipe runs as printed, with this
// checkout's dist/cli.js as $PATKIT, and prints the rotation's event from the stream. Skipped without
// curl, a failure then with PATKIT_REQUIRE_E2E=1, as in CI.

const docs = readFileSync(join(root, 'docs', 'testing.md'), 'utf8')
const HEADING = '\n## Watching the journal live\n'
const dir = mkdtempSync(join(tmpdir(), 'patkit-stream-recipe-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function recipe(): string {
  const at = docs.indexOf(HEADING)
  expect(at).toBeGreaterThan(0)
  const section = docs.slice(at, docs.indexOf('\n## ', at + 1))
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)]
  expect(blocks).toHaveLength(1)
  return blocks[0]?.[1] ?? ''
}

it('the journal stream recipe prints the rotation it made', { timeout: 30_000 }, async (ctx) => {
  if (spawnSync('curl', ['--version']).status !== 0) {
    if (process.env['PATKIT_REQUIRE_E2E'] === '1') throw new Error('curl is missing (PATKIT_REQUIRE_E2E=1)')
    return ctx.skip('no curl')
  }
  writeFileSync(join(dir, 'recipe.sh'), recipe())
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn('bash', ['recipe.sh'], {
      cwd: dir,
      env: { ...process.env, PATKIT: cli },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let text = ''
    child.stdout.on('data', (chunk: Buffer) => {
      text += chunk.toString()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      text += chunk.toString()
    })
    child.once('exit', (exit) => resolve({ code: exit, output: text }))
  })
  const line = output.split('\n').find((l) => l.startsWith('data: '))
  const entry = JSON.parse(line?.slice('data: '.length) ?? 'null') as {
    type?: string
    event?: { previous?: { id?: number }; token?: { id?: number } }
  } | null
  const rotated = { previous: entry?.event?.previous?.id, next: entry?.event?.token?.id }
  expect({ code, type: entry?.type, ...rotated }, output).toEqual({
    code: 0,
    type: 'rotated',
    previous: 1,
    next: 2,
  })
})
