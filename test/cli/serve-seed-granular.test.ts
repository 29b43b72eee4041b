import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { killAll, runCli, SERVE_TIMEOUT, startServe } from './support/cli-process.js'

// `patkit serve --seed` with a fine-grained token (`granular_scopes`, GitLab's API shape): it
// authenticates, reads where its scopes reach, and elsewhere gets GitLab's 403 from
// Authz::Tokens::AuthorizeGranularScopesService (shared/reference fine-grained-pats.md §4); a bad
// entry is refused before listening, naming the token and the field.

const dir = mkdtempSync(join(tmpdir(), 'patkit-cli-granular-'))
afterEach(killAll)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function seedFile(name: string, content: unknown): string {
  const path = join(dir, `${name}.json`)
  writeFileSync(path, JSON.stringify(content))
  return path
}

const FINE = 'glpat-cli-granular-alice-001'
const SEED = {
  users: [{ id: 2, username: 'alice' }],
  groups: [{ id: 1, path: 'acme', name: 'Acme', members: [{ user_id: 2, access_level: 50 }] }],
  projects: [
    { id: 7, path: 'api', name: 'API', group_id: 1 },
    { id: 8, path: 'web', name: 'Web', group_id: 1 },
  ],
  tokens: [
    {
      user_id: 2,
      name: 'fine',
      granular_scopes: [
        { access: 'user', permissions: ['read_personal_access_token'] },
        { access: 'selected_memberships', permissions: ['read_project'], project_ids: [7] },
      ],
      token: FINE,
    },
  ],
}

describe('patkit serve --seed with a fine-grained token', { timeout: SERVE_TIMEOUT }, () => {
  it('authenticates it, serves what its scopes grant and refuses the rest with GitLab’s 403', async () => {
    const server = await startServe(['--seed', seedFile('granular', SEED)], { extraLines: 1 })
    const get = (path: string) => fetch(`${server.apiUrl}${path}`, { headers: { 'PRIVATE-TOKEN': FINE } })
    const self = await get('/personal_access_tokens/self')
    expect(self.status).toBe(200)
    const { id } = (await self.json()) as { id: number }
    const byId = await get(`/personal_access_tokens/${id}`)
    expect(await byId.json()).toMatchObject({
      name: 'fine',
      granular: true,
      scopes: [],
      granular_scopes: [
        { access: 'user', permissions: ['read_personal_access_token'], project_id: null, group_id: null },
        { access: 'selected_memberships', permissions: ['read_project'], project_id: 7, group_id: null },
      ],
    })
    expect((await get('/projects/7')).status).toBe(200)
    const refused = await get('/projects/8')
    expect(refused.status).toBe(403)
    expect(await refused.json()).toEqual({
      error: 'insufficient_granular_scope',
      error_description:
        'Access denied: This operation requires a fine-grained personal access token with the following project permissions: [Project: Read].',
    })
    expect(await server.stop()).toEqual({ code: 0, signal: null })
  })

  it('refuses an unknown permission before listening, naming the token and the field', async () => {
    const path = seedFile('bad', {
      ...SEED,
      tokens: [
        {
          user_id: 2,
          name: 'x',
          granular_scopes: [{ access: 'user', permissions: ['read_repo'] }],
          token: FINE,
        },
      ],
    })
    const run = runCli(['serve', '--port', '0', '--seed', path])
    expect((await run.exited()).code).toBe(1)
    expect(run.lines).toEqual([])
    expect(run.stderr()).toContain(
      `patkit serve: seed file ${path}: tokens[0].granular_scopes[0].permissions[0]: Unknown permission "read_repo"`,
    )
  })
})
