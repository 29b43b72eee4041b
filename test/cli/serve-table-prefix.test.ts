import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { killAll, runCli, SERVE_TIMEOUT, startServe } from './support/cli-process.js'

// Issue 10, one rule per fact: `--table-prefix` had a check of its own that let upper case through,
// and the SQL store then refused the prefix with a TypeError: `--table-prefix Foo_` crashed with a
// stack trace. The CLI now checks the SQL store's one rule (src/sql/table-prefix-rule.ts) up front.

const dir = mkdtempSync(join(tmpdir(), 'patkit-cli-prefix-'))
afterEach(killAll)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('patkit serve --table-prefix', { timeout: SERVE_TIMEOUT }, () => {
  it.each([['Foo_'], ['_lead_'], ['a'.repeat(33)]])(
    '%j exits 2 with a sentence naming the flag and the store rule, and opens no database',
    async (prefix) => {
      const file = join(dir, `${prefix.length}.db`)
      const run = runCli([
        'serve',
        '--port',
        '0',
        '--no-control',
        '--database',
        `sqlite:${file}`,
        '--table-prefix',
        prefix,
      ])
      expect((await run.exited()).code).toBe(2)
      expect(run.lines).toEqual([])
      expect(run.stderr()).toContain(
        `--table-prefix must be lower-case letters, digits and _, starting with a letter, at most 32 characters, got ${JSON.stringify(prefix)}`,
      )
      expect(run.stderr()).toContain('Usage: patkit serve')
      expect(run.stderr()).not.toMatch(/\n\s+at /)
      expect(existsSync(file)).toBe(false)
    },
  )

  it('a prefix the SQL store accepts serves as before', async () => {
    const server = await startServe(
      ['--no-control', '--database', `sqlite:${join(dir, 'ok.db')}`, '--table-prefix', 'cli_ok_'],
      { extraLines: 0 },
    )
    expect((await fetch(`${server.apiUrl}/personal_access_tokens`)).status).toBe(401)
    expect(await server.stop()).toEqual({ code: 0, signal: null })
  })
})
