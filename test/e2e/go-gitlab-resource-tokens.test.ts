import { execFile } from 'node:child_process'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { buildGoGitlab } from './support/clients.js'
import { GROUP_BOT, PROJECT_BOT, resourceFake, TODAY, WEEK_LATER } from './support/resource-fake.js'

// go-gitlab (Debian's golang-github-xanzy-go-gitlab-dev 0.73, built in GOPATH mode) on project and
// group access tokens against the fake with a project, a group and their bots
// (test/e2e/support/resource-fake.ts): test/e2e/go_gitlab_resource_check/main.go drives the client's
// ProjectAccessTokens/GroupAccessTokens services (rotation, which that version lacks, through its
// NewRequest/Do) and prints what it saw; this test asserts GitLab's documented answers. Skipped
// without go or go-gitlab unless PATKIT_REQUIRE_E2E=1.

const PROGRAM = join(import.meta.dirname, 'go_gitlab_resource_check')
const run = promisify(execFile)
const required = process.env['PATKIT_REQUIRE_E2E'] === '1'

type Fields = Record<string, unknown> & { id: number; user_id: number }
interface ErrorSeen {
  readonly type: string
  readonly status: number
  readonly message: string
}
type Who = { id: number; username: string; bot: boolean } | { error: ErrorSeen }
interface Seen {
  listed: Fields[]
  by_path_ids: number[]
  created: Fields
  created_secret_user: Who
  got: Fields
  rotated: Fields
  rotated_secret_user: Who
  old_secret_after_rotate: Who
  self_rotated: Fields
  after: [number, boolean, boolean][]
  revoked_secret_user: Who
  errors: Record<string, ErrorSeen | null>
}

const seen = (status: number, message: string): ErrorSeen => ({
  type: '*gitlab.ErrorResponse',
  status,
  message,
})
const revokedSecret = {
  error: seen(
    401,
    '{error: invalid_token}, {error_description: Token was revoked. You have to re-authorize from the user.}',
  ),
}

describe('go-gitlab on project and group access tokens against the fake', () => {
  it('lists by id and by path, creates (a working secret of a new bot), gets, rotates, revokes, and returns its ErrorResponse', async (ctx) => {
    const built = buildGoGitlab(PROGRAM)
    if ('reason' in built) {
      if (required) throw new Error(`PATKIT_REQUIRE_E2E=1 but ${built.reason}`)
      console.warn(`skipped: ${built.reason}`)
      ctx.skip(built.reason)
      return
    }
    const w = await resourceFake()
    try {
      const { secrets: s } = w
      const { stdout } = await run(built.binary, [w.url, s.alice, s.bob, s.carol, s.projectBot, s.groupBot], {
        timeout: 60_000,
        encoding: 'utf8',
      })
      const report = JSON.parse(stdout) as { project: Seen; group: Seen }
      for (const kind of ['project', 'group'] as const) {
        const r = report[kind]
        const bot = kind === 'project' ? PROJECT_BOT : GROUP_BOT
        const first = w.tokenIds[kind === 'project' ? 'projectBot' : 'groupBot']
        const created = `${TODAY}T00:00:00Z`

        // The list by id and by the client's URL-encoded full path (`acme%2Fapi`): the bot's token, no secret.
        expect(r.listed).toEqual([
          {
            id: first,
            user_id: bot,
            name: kind === 'project' ? 'deploy' : 'group-deploy',
            scopes: ['api'],
            created_at: created,
            expires_at: '2026-06-01',
            active: true,
            revoked: false,
            has_token: false,
            access_level: 40,
          },
        ])
        expect(r.by_path_ids).toEqual([first])

        // Created for a new bot user, whose secret authenticates as that bot.
        const ci = { name: 'ci', scopes: ['read_api'], created_at: created, active: true, revoked: false }
        expect(r.created).toMatchObject({
          ...ci,
          expires_at: '2026-02-01',
          access_level: 30,
          has_token: true,
        })
        expect([first, bot]).not.toContain(r.created.user_id)
        expect(r.created_secret_user).toMatchObject({ id: r.created.user_id, bot: true })
        expect((r.created_secret_user as { username: string }).username).toMatch(
          new RegExp(`^${kind}_1_bot_`),
        )
        expect(r.got).toEqual({ ...r.created, has_token: false })

        // Rotated through NewRequest/Do: a new token of the same bot, a week's expiry; the old secret
        // stops working. The bot's own `self` rotation keeps its user and takes expires_at.
        expect(r.rotated).toMatchObject({
          ...ci,
          expires_at: WEEK_LATER,
          user_id: r.created.user_id,
          has_token: true,
        })
        expect(r.rotated.id).not.toBe(r.created.id)
        expect(r.rotated_secret_user).toEqual(r.created_secret_user)
        expect(r.old_secret_after_rotate).toEqual(revokedSecret)
        expect(r.self_rotated).toMatchObject({ user_id: bot, expires_at: '2026-03-01', access_level: 40 })

        // Revoked tokens stay listed as revoked (GitLab 17.9+); the revoked secret stops working.
        expect(r.after).toEqual([
          [first, false, true],
          [r.created.id, false, true],
          [r.rotated.id, false, true],
          [r.self_rotated.id, true, false],
        ])
        expect(r.revoked_secret_user).toEqual(revokedSecret)

        // The client's *ErrorResponse with GitLab's messages. A Developer of the project (bob) or a
        // Maintainer of the group (carol, not its Owner) may not read them (401) or create one (400).
        const message = (text: string) => `{message: ${text}}`
        const notFound = kind === 'project' ? 'Project' : 'Group'
        expect(r.errors).toEqual({
          unknown_token: seen(404, message(`404 ${kind} Access Token Not Found`)),
          revoke_unknown: seen(404, message(`404 ${kind} Access Token Not Found`)),
          unknown_resource: seen(404, message(`404 ${notFound} Not Found`)),
          unknown_path: seen(404, message(`404 ${notFound} Not Found`)),
          outsider_list: seen(401, message('401 Unauthorized')),
          outsider_create: seen(
            400,
            message(`400 Bad request - User does not have permission to create ${kind} access token`),
          ),
        })
      }
    } finally {
      await w.fake.close()
      rmSync(built.dir, { recursive: true, force: true })
    }
  }, 240_000)
})
