import { execFile, spawnSync } from 'node:child_process'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SECRETS, SEED } from './support/seed.js'
import { type Served, serve, stopAll } from './support/serve.js'

// curl sends `granular_scopes` form-encoded (`-d`, application/x-www-form-urlencoded), as GitLab's
// Grape reads it through Rack's nested parameters: each repeated `granular_scopes[][access]` starts a
// new scope, and the `[permissions][]` and `[project_ids][]` after it belong to that scope
// (Rack::QueryParser#normalize_params; src/http/nested-form-params.ts). The command mirrors the one
// docs/testing.md shows ("Fine-grained tokens from python-gitlab, gitbeaker and curl"), against
// `patkit serve` at its default release (19.6).

const run = promisify(execFile)
const curl = spawnSync('curl', ['--version'], { encoding: 'utf8', timeout: 10_000 })
const missing =
  curl.status === 0 ? undefined : `curl is not installed (${curl.error?.message ?? curl.stderr})`
const required = process.env['PATKIT_REQUIRE_E2E'] === '1'

afterAll(stopAll)

/** curl's body and status (`-w`), one request. */
async function curlJson(args: readonly string[]): Promise<{ status: number; json: unknown }> {
  const { stdout } = await run('curl', ['--silent', '--show-error', '-w', '\n%{http_code}', ...args], {
    timeout: 15_000,
    encoding: 'utf8',
  })
  const at = stdout.lastIndexOf('\n')
  return { status: Number(stdout.slice(at + 1)), json: JSON.parse(stdout.slice(0, at)) }
}

describe('curl: granular_scopes in a form body', () => {
  let server: Served | undefined
  beforeAll(async () => {
    if (missing === undefined) server = await serve(SEED)
  })
  afterAll(() => server?.close())

  it('creates a token with two scopes from one form body, and the token reads GET /user', async (ctx) => {
    if (missing !== undefined) {
      if (required) throw new Error(`PATKIT_REQUIRE_E2E=1 but ${missing}`)
      ctx.skip(missing)
      return
    }
    if (server === undefined) throw new Error('the server did not start')
    const created = await curlJson([
      '--header',
      `PRIVATE-TOKEN: ${SECRETS.alice}`,
      '--data',
      'name=form-fine',
      '--data',
      'granular_scopes[][access]=user',
      '--data',
      'granular_scopes[][permissions][]=read_user',
      '--data',
      'granular_scopes[][permissions][]=read_personal_access_token',
      '--data',
      'granular_scopes[][access]=personal_projects',
      '--data',
      'granular_scopes[][permissions][]=read_project',
      `${server.url}/api/v4/user/personal_access_tokens`,
    ])
    expect(created.status).toBe(201)
    expect(created.json).toMatchObject({
      name: 'form-fine',
      user_id: 2,
      granular: true,
      scopes: [],
      granular_scopes: [
        {
          access: 'user',
          permissions: ['read_user', 'read_personal_access_token'],
          project_id: null,
          group_id: null,
        },
        { access: 'personal_projects', permissions: ['read_project'], project_id: null, group_id: null },
      ],
    })
    const { token } = created.json as { token: string }
    const me = await curlJson(['--header', `PRIVATE-TOKEN: ${token}`, `${server.url}/api/v4/user`])
    expect([me.status, me.json]).toMatchObject([200, { id: 2, username: 'alice' }])
  })

  it("a scope without its permissions is Grape's 400, named by the scope's index", async (ctx) => {
    if (missing !== undefined) {
      if (required) throw new Error(`PATKIT_REQUIRE_E2E=1 but ${missing}`)
      ctx.skip(missing)
      return
    }
    if (server === undefined) throw new Error('the server did not start')
    const refused = await curlJson([
      '--header',
      `PRIVATE-TOKEN: ${SECRETS.alice}`,
      '--data',
      'name=form-fine&granular_scopes[][access]=user&granular_scopes[][permissions][]=read_user&granular_scopes[][access]=user',
      `${server.url}/api/v4/user/personal_access_tokens`,
    ])
    expect(refused).toEqual({ status: 400, json: { error: 'granular_scopes[1][permissions] is missing' } })
  })
})
