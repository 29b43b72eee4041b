import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { killAll, runCli, SERVE_TIMEOUT, startServe } from './support/cli-process.js'

// `patkit serve --seed` with groups, projects, members and a bot: the summary line names them, the
// bot's token works as a project access token, and a bad file is refused before listening, naming the
// field.

const dir = mkdtempSync(join(tmpdir(), 'patkit-cli-resources-'))
afterEach(killAll)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function seedFile(name: string, content: unknown): string {
  const path = join(dir, `${name}.json`)
  writeFileSync(path, JSON.stringify(content))
  return path
}

const ALICE = 'glpat-cli-resources-alice-01'
const BOT = 'glpat-cli-resources-bot-0001'
const SEED = {
  users: [
    { id: 2, username: 'alice', name: 'Alice' },
    {
      id: 3,
      username: 'project_7_bot_ab',
      name: 'deploy',
      bot: true,
      bot_namespace: { type: 'project', id: 7 },
    },
  ],
  groups: [{ id: 1, path: 'acme', name: 'Acme', members: [{ user_id: 2, access_level: 50 }] }],
  projects: [{ id: 7, path: 'api', name: 'API', group_id: 1, members: [{ user_id: 3, access_level: 40 }] }],
  tokens: [
    { user_id: 2, name: 'alice', scopes: ['api'], token: ALICE },
    { user_id: 3, name: 'deploy', scopes: ['api'], token: BOT },
  ],
}

describe('patkit serve --seed with groups, projects and a bot', { timeout: SERVE_TIMEOUT }, () => {
  it('loads them, says so, and serves the bot token as a project access token', async () => {
    const path = seedFile('world', SEED)
    const server = await startServe(['--seed', path], { extraLines: 1 })
    expect(server.lines[1]).toBe(`seeded 2 users, 1 group, 1 project and 2 tokens from ${path}`)
    const listed = await fetch(`${server.apiUrl}/projects/acme%2Fapi/access_tokens`, {
      headers: { 'PRIVATE-TOKEN': ALICE },
    })
    expect(listed.status).toBe(200)
    expect(await listed.json()).toMatchObject([
      { user_id: 3, access_level: 40, resource_type: 'project', resource_id: 7 },
    ])
    const self = await fetch(`${server.apiUrl}/personal_access_tokens/self`, {
      headers: { 'PRIVATE-TOKEN': BOT },
    })
    expect(self.status).toBe(200)
    expect(await server.stop()).toEqual({ code: 0, signal: null })
  })

  it('refuses a bad file before listening, naming the field', async () => {
    const path = seedFile('bad', {
      ...SEED,
      projects: [{ id: 7, path: 'api', name: 'API', group_id: 9 }],
      tokens: [{ user_id: 3, name: 'deploy', scopes: ['read_user'], token: BOT }],
    })
    const run = runCli(['serve', '--port', '0', '--seed', path])
    expect((await run.exited()).code).toBe(1)
    expect(run.lines).toEqual([])
    expect(run.stderr()).toContain(
      `patkit serve: seed file ${path}: projects[0].group_id: No group with id 9`,
    )
    expect(run.stderr()).toContain(`patkit serve: seed file ${path}: tokens[0].scopes[0]: User 3 is a bot`)
  })
})
