import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { killAll, runCli, SERVE_TIMEOUT, startServe } from './support/cli-process.js'

// `patkit serve --seed` refuses a seed that would fork a token family, before it listens: within the
// file, and against the tokens a database already holds (the seed is added to them).

const dir = mkdtempSync(join(tmpdir(), 'patkit-cli-families-'))
afterEach(killAll)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function seedFile(name: string, content: unknown): string {
  const path = join(dir, `${name}.json`)
  writeFileSync(path, JSON.stringify(content))
  return path
}

const users = [
  { id: 2, username: 'alice' },
  { id: 3, username: 'bob' },
]
const token = (id: number, fields: Record<string, unknown> = {}) => ({
  id,
  user_id: 2,
  name: `token-${id}`,
  scopes: ['api'],
  token: `glpat-cli-family-secret-${id}`,
  expires_at: '2099-01-01',
  ...fields,
})
// A database start needs no control token today; given anyway, so the test does not depend on it.
const guard = ['--control-token', 'cli-families-control-token', '--pepper', 'cli-families-pepper']

describe('patkit serve --seed and token families', { timeout: SERVE_TIMEOUT }, () => {
  it.each([
    [
      'an active predecessor',
      [token(10), token(11, { previous_id: 10 })],
      'tokens[1].previous_id: token 10 is still active',
    ],
    [
      "another user's predecessor",
      [token(10, { revoked: true }), token(11, { user_id: 3, previous_id: 10 })],
      'tokens[1].previous_id: token 10 belongs to user 2, not user 3',
    ],
    [
      'a forward reference',
      [token(10, { previous_id: 11 }), token(11, { revoked: true })],
      'tokens[0].previous_id: token 11 comes later in the seed (tokens[1])',
    ],
  ])('refuses %s in the file, with --database too', async (what, tokens, expected) => {
    const path = seedFile(what.replaceAll(/\W/g, '-'), { users, tokens })
    const database = `sqlite:${join(dir, `${what.replaceAll(/\W/g, '-')}.db`)}`
    const run = runCli(['serve', '--port', '0', '--database', database, ...guard, '--seed', path])
    expect((await run.exited()).code).toBe(1)
    expect(run.lines).toEqual([])
    expect(run.stderr()).toContain(`patkit serve: seed file ${path}: ${expected}`)
  })

  it('refuses a seed naming an active token the database holds as predecessor', async () => {
    const database = `sqlite:${join(dir, 'stored.db')}`
    const first = await startServe(
      ['--database', database, ...guard, '--seed', seedFile('first', { users, tokens: [token(10)] })],
      { extraLines: 1 },
    )
    expect(await first.stop()).toEqual({ code: 0, signal: null })
    const path = seedFile('second', { tokens: [token(11, { previous_id: 10 })] })
    const second = runCli(['serve', '--port', '0', '--database', database, ...guard, '--seed', path])
    expect((await second.exited()).code).toBe(1)
    expect(second.lines).toEqual([])
    expect(second.stderr()).toContain(
      `patkit serve: seed file ${path}: tokens[0].previous_id: token 10 is still active; a token's predecessor must be revoked`,
    )
  })
})
