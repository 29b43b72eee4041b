import { execFile } from 'node:child_process'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { buildGoGitlab } from './support/clients.js'
import { ALL_IDS, SECRETS, SEED } from './support/seed.js'
import { serve, stopAll } from './support/serve.js'

// go-gitlab (Debian's golang-github-xanzy-go-gitlab-dev, built in GOPATH mode) against
// `patkit serve`: test/e2e/go_gitlab_check/main.go drives the client and prints what it saw as JSON;
// this test asserts it. Without go or go-gitlab the test is skipped with the reason, unless
// PATKIT_REQUIRE_E2E=1 (CI) makes that a failure.

const PROGRAM = join(import.meta.dirname, 'go_gitlab_check')
const run = promisify(execFile)
const required = process.env['PATKIT_REQUIRE_E2E'] === '1'

afterAll(stopAll)

interface ErrorSeen {
  readonly type: string
  readonly status: number
  readonly message: string
}

interface Report {
  user: { id: number; username: string; is_admin: boolean }
  typed_ids: number[]
  typed_pages: number
  user_ids: number[]
  filtered_pages: number[][]
  got: Record<string, unknown>
  self: Record<string, unknown>
  rotated: Record<string, unknown>
  self_rotated: Record<string, unknown>
  old_after_rotate: boolean
  revoked_9: boolean
  impersonation: Record<string, unknown>
  errors: Record<string, ErrorSeen | null>
  sudo: Record<string, unknown>
}

describe('go-gitlab against patkit serve', () => {
  it('reads the current user, pages the list with its filters, gets, rotates by id and self, revokes, manages impersonation tokens, returns its ErrorResponse, and acts as another user with WithSudo', async (ctx) => {
    const built = buildGoGitlab(PROGRAM)
    if ('reason' in built) {
      if (required) throw new Error(`PATKIT_REQUIRE_E2E=1 but ${built.reason}`)
      console.warn(`skipped: ${built.reason}`)
      ctx.skip(built.reason)
      return
    }
    const server = await serve(SEED)
    try {
      const { stdout } = await run(
        built.binary,
        [server.url, SECRETS.root, SECRETS.alice, SECRETS.aliceReadApi, SECRETS.bob],
        { timeout: 60_000, encoding: 'utf8' },
      )
      const report = JSON.parse(stdout) as Report

      expect(report.user).toEqual({ id: 1, username: 'root', is_admin: true })
      // The typed list with per_page=4, following Response.NextPage (X-Next-Page): three pages.
      expect(report.typed_ids).toEqual(ALL_IDS)
      expect(report.typed_pages).toBe(3)
      expect(report.user_ids).toEqual([2, 3, 4, 5, 6, 7])
      expect(report.filtered_pages).toEqual([
        [2, 3],
        [6, 7],
      ])

      expect(report.got).toEqual({
        id: 10,
        name: 'bob-Deploy-Key',
        user_id: 3,
        active: true,
        scopes: ['read_api', 'read_repository'],
        expires_at: '2099-12-31',
        created_at: '2025-01-10T00:00:00Z',
      })
      expect(report.self).toEqual({ id: 2, name: 'alice-laptop' })
      expect(report.rotated).toMatchObject({ id: 11, name: 'alice-backup', active: true, has_token: true })
      expect(report.rotated['expires_at']).toBe(report.rotated['expected_expiry'])
      // go-gitlab sends `null` as the body of a rotation without options.
      expect(report.self_rotated).toEqual({ id: 12, name: 'alice-backup' })
      expect(report.old_after_rotate).toBe(true)
      expect(report.revoked_9).toBe(true)

      // UsersService's impersonation tokens: created for alice, it authenticates as alice; listed,
      // revoked, then listed as inactive; alice's own token list leaves it out.
      expect(report.impersonation).toEqual({
        id: 13,
        name: 'support',
        active: true,
        has_token: true,
        scopes: ['api'],
        current_user: 'alice',
        listed_ids: [13],
        revoked_after_delete: true,
        inactive_ids: [13],
        alice_own_ids: [2, 3, 4, 5, 6, 7, 11, 12],
      })

      // go-gitlab's *ErrorResponse: the status, and its rendering of the JSON body.
      const message = (text: string) => `{message: ${text}}`
      const seen = (status: number, text: string): ErrorSeen => ({
        type: '*gitlab.ErrorResponse',
        status,
        message: text,
      })
      expect(report.errors).toEqual({
        wrong_token: seen(401, message('401 Unauthorized')),
        other_users_token: seen(401, message('401 Unauthorized')),
        read_api_rotate: seen(
          403,
          '{error: insufficient_scope}, {error_description: The request requires higher privileges than provided by the access token.}, {scope: api}',
        ),
        admin_missing: seen(404, message('404 Not Found')),
        non_admin_user_filter: seen(401, message('401 Unauthorized')),
        non_admin_impersonation: seen(403, message('403 Forbidden')),
        not_an_impersonation_token: seen(404, message('404 Impersonation Token Not Found')),
      })

      // WithSudo (the Sudo header) with an administrator's `sudo` token, by username and by id.
      expect(report.sudo).toEqual({
        by_username: 'alice',
        by_id: 'bob',
        non_admin: seen(403, message('403 Forbidden - Must be admin to use sudo')),
        without_scope: seen(
          403,
          '{error: insufficient_scope}, {error_description: The request requires higher privileges than provided by the access token.}, {scope: sudo}',
        ),
        unknown_user: seen(404, message("404 User with ID or username 'nobody' Not Found")),
      })
    } finally {
      await server.close()
      rmSync(built.dir, { recursive: true, force: true })
    }
  }, 240_000)
})
