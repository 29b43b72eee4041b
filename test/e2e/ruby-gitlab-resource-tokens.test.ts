import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { findRubyGitlab } from './support/clients.js'
import { GROUP_BOT, PROJECT_BOT, resourceFake, WEEK_LATER } from './support/resource-fake.js'

// The Ruby gitlab gem (Debian's ruby-gitlab 4.17, which has no access token methods: its
// client.get/post/delete) on project and group access tokens against the fake with a project, a group
// and their bots (test/e2e/support/resource-fake.ts): test/e2e/ruby_gitlab_resource_check.rb drives
// it; this test asserts GitLab's documented answers. Skipped without the gem unless
// PATKIT_REQUIRE_E2E=1.

const SCRIPT = join(import.meta.dirname, 'ruby_gitlab_resource_check.rb')
const run = promisify(execFile)
const found = findRubyGitlab()
const required = process.env['PATKIT_REQUIRE_E2E'] === '1'

type Fields = Record<string, unknown> & { id: number }
interface Seen {
  listed: Fields[]
  created: Fields
  got: Fields
  rotated: Fields
  self_rotated: Fields
  after: [number, boolean][]
  errors: Record<string, { class: string; status: number } | null>
}

describe('the Ruby gitlab gem on project and group access tokens against the fake', () => {
  it('lists, creates, gets, rotates by id and self, revokes, and raises its error classes', async (ctx) => {
    if ('reason' in found) {
      if (required) throw new Error(`PATKIT_REQUIRE_E2E=1 but ${found.reason}`)
      ctx.skip(found.reason)
      return
    }
    const w = await resourceFake()
    try {
      const { secrets: s } = w
      const { stdout } = await run(
        found.ruby,
        [SCRIPT, w.url, s.alice, s.bob, s.carol, s.projectBot, s.groupBot],
        { timeout: 60_000, encoding: 'utf8' },
      )
      const report = JSON.parse(stdout) as { project: Seen; group: Seen }
      for (const kind of ['project', 'group'] as const) {
        const seen = report[kind]
        const bot = kind === 'project' ? PROJECT_BOT : GROUP_BOT
        const resource = { resource_type: kind, resource_id: 1 }
        const first = w.tokenIds[kind === 'project' ? 'projectBot' : 'groupBot']
        expect(seen.listed).toHaveLength(1)
        expect(seen.listed[0]).toMatchObject({ id: first, user_id: bot, access_level: 40, ...resource })
        expect(seen.listed[0]).not.toHaveProperty('token')
        const ci = { name: 'ci', scopes: ['read_api'], active: true, access_level: 30, ...resource }
        expect(seen.created).toMatchObject({ ...ci, expires_at: '2026-02-01' })
        expect(seen.got).toEqual(seen.created)
        expect(seen.rotated).toMatchObject({ ...ci, expires_at: WEEK_LATER })
        expect(seen.self_rotated).toMatchObject({ user_id: bot, expires_at: '2026-03-01' })
        expect(seen.after).toEqual([
          [first, true],
          [seen.created.id, true],
          [seen.rotated.id, true],
          [seen.self_rotated.id, false],
        ])
        expect(seen.errors).toEqual({
          outsider_list: { class: 'Gitlab::Error::Unauthorized', status: 401 },
          unknown_get: { class: 'Gitlab::Error::NotFound', status: 404 },
          human_self_rotate: { class: 'Gitlab::Error::MethodNotAllowed', status: 405 },
        })
      }
    } finally {
      await w.fake.close()
    }
  }, 90_000)
})
