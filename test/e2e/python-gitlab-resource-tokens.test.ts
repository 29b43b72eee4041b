import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { findPython } from './support/python.js'
import { GROUP_BOT, PROJECT_BOT, resourceFake, WEEK_LATER } from './support/resource-fake.js'

// python-gitlab's project.access_tokens and group.access_tokens (Debian's python3-gitlab 3.12: list,
// create, delete; get and rotate through its http_get/http_post) against the fake GitLab with a
// project, a group and their bots (test/e2e/support/resource-fake.ts): test/e2e/
// python_gitlab_resource_check.py drives the client and prints what it saw; this test asserts
// GitLab's documented answers. Skipped without python3-gitlab unless PATKIT_REQUIRE_E2E=1.

const SCRIPT = join(import.meta.dirname, 'python_gitlab_resource_check.py')
const run = promisify(execFile)
const found = findPython(['gitlab'], 'python3-gitlab')
const required = process.env['PATKIT_REQUIRE_E2E'] === '1'

type Fields = Record<string, unknown> & { id: number }
interface Seen {
  listed: Fields[]
  created: Fields
  created_has_token: boolean
  got: Fields
  rotated: Fields
  self_rotated: Fields
  after: [number, boolean][]
  first: number
  errors: Record<string, { type: string; code: number; message: string } | null>
  resource: Record<string, unknown>
}

describe('python-gitlab project and group access tokens against the fake', () => {
  it('lists, creates, gets, rotates by id and self, deletes, and reports GitLab’s errors', async (ctx) => {
    if ('reason' in found) {
      if (required) throw new Error(`PATKIT_REQUIRE_E2E=1 but ${found.reason}`)
      ctx.skip(found.reason)
      return
    }
    const w = await resourceFake()
    try {
      const { secrets: s } = w
      const { stdout } = await run(
        found.python,
        [SCRIPT, w.url, s.alice, s.bob, s.carol, s.projectBot, s.groupBot],
        { timeout: 60_000, encoding: 'utf8' },
      )
      const report = JSON.parse(stdout) as { project: Seen; group: Seen }
      for (const kind of ['project', 'group'] as const) {
        const seen = report[kind]
        const resource = { resource_type: kind, resource_id: 1 }
        const bot = kind === 'project' ? PROJECT_BOT : GROUP_BOT
        // The non-lazy get read GET /projects/1 or /groups/1 (GitLab's find_project!/find_group!).
        expect(seen.resource).toEqual({
          id: 1,
          name: kind === 'project' ? 'API' : 'Acme',
          web_url: `${w.url}/${kind === 'project' ? 'acme/api' : 'groups/acme'}`,
          visibility: 'private',
        })
        expect(seen.listed).toEqual([
          {
            id: w.tokenIds[kind === 'project' ? 'projectBot' : 'groupBot'],
            name: kind === 'project' ? 'deploy' : 'group-deploy',
            scopes: ['api'],
            user_id: bot,
            active: true,
            revoked: false,
            expires_at: '2026-06-01',
            access_level: 40,
            ...resource,
          },
        ])
        const ci = {
          name: 'ci',
          scopes: ['read_api'],
          active: true,
          revoked: false,
          access_level: 30,
          ...resource,
        }
        expect(seen.created).toMatchObject({ ...ci, expires_at: '2026-02-01' })
        expect(seen.created_has_token).toBe(true)
        expect(seen.got).toEqual(seen.created)
        expect(seen.rotated).toMatchObject({
          ...ci,
          expires_at: WEEK_LATER,
          user_id: seen.created['user_id'],
        })
        expect(seen.self_rotated).toMatchObject({ user_id: bot, expires_at: '2026-03-01', access_level: 40 })
        expect(seen.after).toEqual([
          [seen.first, true],
          [seen.created.id, true],
          [seen.rotated.id, true],
          [seen.self_rotated.id, false],
        ])
        // python-gitlab raises GitlabAuthenticationError for every 401, whatever the call (http_request).
        expect(seen.errors).toEqual({
          outsider_list: { type: 'GitlabAuthenticationError', code: 401, message: '401 Unauthorized' },
          unknown_delete: {
            type: 'GitlabDeleteError',
            code: 404,
            message: `404 ${kind} Access Token Not Found`,
          },
          human_self_rotate: { type: 'GitlabHttpError', code: 405, message: '405 Method Not Allowed' },
        })
      }
    } finally {
      await w.fake.close()
    }
  }, 90_000)
})
