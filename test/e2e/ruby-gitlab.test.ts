import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { findRubyGitlab } from './support/clients.js'
import { ALL_IDS, SECRETS, SEED } from './support/seed.js'
import { serve, stopAll } from './support/serve.js'

// The Ruby `gitlab` gem (Debian's ruby-gitlab) against `patkit serve`: test/e2e/ruby_gitlab_check.rb
// drives the client and prints what it saw as JSON; this test asserts it. Without ruby or the gem the
// test is skipped with the reason, unless PATKIT_REQUIRE_E2E=1 (CI) makes that a failure.

const SCRIPT = join(import.meta.dirname, 'ruby_gitlab_check.rb')
const run = promisify(execFile)

const found = findRubyGitlab()
const required = process.env['PATKIT_REQUIRE_E2E'] === '1'

afterAll(stopAll)

interface ErrorSeen {
  readonly class: string
  readonly status: number
  readonly message: string
}

interface Report {
  gem: string
  user: { id: number; username: string; is_admin: boolean }
  pages: number[][]
  filtered_ids: number[]
  search_ids: number[]
  got: Record<string, unknown>
  self: Record<string, unknown>
  rotated: Record<string, unknown>
  self_rotated: { name: string; previous_id: number; id: number }
  old_after_rotate: boolean
  revoked_9: boolean
  errors: Record<string, ErrorSeen | null>
  sudo: Record<string, unknown>
}

describe('the Ruby gitlab gem against patkit serve', () => {
  it('reads the current user, pages the list with its filters, gets, rotates by id and self, revokes, raises its error classes, and acts as another user with sudo', async (ctx) => {
    if ('reason' in found) {
      if (required) throw new Error(`PATKIT_REQUIRE_E2E=1 but ${found.reason}`)
      console.warn(`skipped: ${found.reason}`)
      ctx.skip(found.reason)
      return
    }
    const server = await serve(SEED)
    try {
      const { stdout } = await run(
        found.ruby,
        [SCRIPT, server.url, SECRETS.root, SECRETS.alice, SECRETS.aliceReadApi, SECRETS.bob],
        { timeout: 60_000, encoding: 'utf8' },
      )
      const report = JSON.parse(stdout) as Report

      expect(report.user).toEqual({ id: 1, username: 'root', is_admin: true })
      // per_page=3 over ten tokens: four pages, each reached through the previous one's Link rel="next".
      expect(report.pages).toEqual([[1, 2, 3], [4, 5, 6], [7, 8, 9], [10]])
      expect(report.pages.flat()).toEqual(ALL_IDS)
      // alice's active tokens (not the revoked 4 nor the expired 5), two to a page.
      expect(report.filtered_ids).toEqual([2, 3, 6, 7])
      expect(report.search_ids).toEqual([4, 10])

      expect(report.got).toEqual({
        id: 10,
        name: 'bob-Deploy-Key',
        // GitLab's newest PersonalAccessToken entity (19.6, the default release): `expired` and
        // `granular` beside `active` and `revoked` (lib/api/entities/personal_access_token.rb).
        active: true,
        revoked: false,
        expired: false,
        granular: false,
        created_at: '2025-01-10T00:00:00.000Z',
        description: null,
        scopes: ['read_api', 'read_repository'],
        user_id: 3,
        last_used_at: null,
        expires_at: '2099-12-31',
        // Never used: no IP recorded.
        last_used_ips: [],
      })
      // alice's token was just used from 127.0.0.1 (the gem's own requests): recorded.
      expect(report.self).toMatchObject({
        id: 2,
        name: 'alice-laptop',
        user_id: 2,
        active: true,
        last_used_ips: ['127.0.0.1'],
      })

      // Rotation answers the successor with its secret and the asked expiry; the successor rotates
      // itself; the old token is revoked.
      expect(report.rotated).toMatchObject({ id: 11, name: 'alice-backup', active: true, has_token: true })
      expect(report.rotated['expires_at']).toBe(report.rotated['expected_expiry'])
      expect(report.self_rotated).toEqual({ name: 'alice-backup', previous_id: 11, id: 12 })
      expect(report.old_after_rotate).toBe(true)
      expect(report.revoked_9).toBe(true)

      // The gem raises a class per status; its message takes the body's message, else its
      // error_description, else its error.
      const uri = (path: string) => `Request URI: ${server.url}/api/v4${path}`
      const seen = (klass: string, status: number, text: string, path: string): ErrorSeen => ({
        class: `Gitlab::Error::${klass}`,
        status,
        message: `Server responded with code ${status}, message: ${text}. ${uri(path)}`,
      })
      expect(report.errors).toEqual({
        wrong_token: seen('Unauthorized', 401, '401 Unauthorized', '/personal_access_tokens'),
        other_users_token: seen('Unauthorized', 401, '401 Unauthorized', '/personal_access_tokens/2'),
        read_api_rotate: seen(
          'Forbidden',
          403,
          'The request requires higher privileges than provided by the access token.',
          '/personal_access_tokens/3/rotate',
        ),
        admin_missing: seen('NotFound', 404, '404 Not Found', '/personal_access_tokens/9999'),
        non_admin_user_filter: seen('Unauthorized', 401, '401 Unauthorized', '/personal_access_tokens'),
        bad_state: seen('BadRequest', 400, 'state does not have a valid value', '/personal_access_tokens'),
        non_admin_impersonation: seen('Forbidden', 403, '403 Forbidden', '/users/2/impersonation_tokens'),
      })
      // The gem's `sudo:` option with an administrator's `sudo` token acts as the user named (by
      // username or id); `self` stays the token presented, as in GitLab.
      expect(report.sudo).toEqual({
        user: 'alice',
        self_of: 1,
        by_id: 'alice',
        non_admin: seen('Forbidden', 403, '403 Forbidden - Must be admin to use sudo', '/user'),
        without_scope: seen(
          'Forbidden',
          403,
          'The request requires higher privileges than provided by the access token.',
          '/user',
        ),
        unknown_user: seen('NotFound', 404, "404 User with ID or username 'nobody' Not Found", '/user'),
      })
      console.info(`ruby gitlab gem ${report.gem}`)
    } finally {
      await server.close()
    }
  }, 90_000)
})
