import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { findPython } from './support/python.js'
import { ALL_IDS, SECRETS, SEED } from './support/seed.js'
import { serve, stopAll } from './support/serve.js'

// python-gitlab (Debian's python3-gitlab) against `patkit serve`: test/e2e/python_gitlab_check.py
// drives the client and prints what it saw as JSON; this test asserts it. Without python3 or the
// gitlab module the test is skipped with the reason, unless PATKIT_REQUIRE_E2E=1 (CI) makes that a
// failure.

const SCRIPT = join(import.meta.dirname, 'python_gitlab_check.py')
const run = promisify(execFile)

const found = findPython(['gitlab'], 'python3-gitlab')
const required = process.env['PATKIT_REQUIRE_E2E'] === '1'

afterAll(stopAll)

interface Report {
  python_gitlab: string
  auth: { id: number; username: string; is_admin: boolean; web_url: string; warnings: string[] }
  version: [string, string]
  users_by_username: number[]
  user_by_id: Record<string, unknown>
  list_ids: number[]
  list_pages: string[]
  alice_ids: number[]
  get_method: string
  got: Record<string, unknown>
  self: Record<string, unknown>
  revoked_after_delete: Record<string, boolean>
  active_after_delete: number[]
  errors: Record<string, { type: string; code: number; message: string } | null>
}

describe('python-gitlab against patkit serve', () => {
  it('verifies the token with auth(), reads the version and users, lists across pages, gets by id and self, deletes, and reports our error bodies', async (ctx) => {
    if ('reason' in found) {
      if (required) throw new Error(`PATKIT_REQUIRE_E2E=1 but ${found.reason}`)
      console.warn(`skipped: ${found.reason}`)
      ctx.skip(found.reason)
      return
    }
    const server = await serve(SEED)
    try {
      const { stdout } = await run(found.python, [SCRIPT, server.url, SECRETS.root, SECRETS.bob], {
        timeout: 60_000,
        encoding: 'utf8',
      })
      const report = JSON.parse(stdout) as Report

      // gl.auth() verified the token with GET /user; web_url matched the client's URL (no warning).
      expect(report.auth).toEqual({
        id: 1,
        username: 'root',
        is_admin: true,
        web_url: `${server.url}/root`,
        warnings: [],
      })
      expect(report.version).toEqual(['19.6.0', 'patkit'])
      expect(report.users_by_username).toEqual([2])
      expect(report.user_by_id).toEqual({
        id: 2,
        username: 'alice',
        state: 'active',
        web_url: `${server.url}/alice`,
      })

      // get_all with per_page=2 walked five pages by following Link rel="next".
      expect(report.list_ids).toEqual(ALL_IDS)
      expect(report.list_pages).toEqual([
        `${server.url}/api/v4/personal_access_tokens?per_page=2`,
        ...[2, 3, 4, 5].map((p) => `${server.url}/api/v4/personal_access_tokens?page=${p}&per_page=2`),
      ])
      expect(report.alice_ids).toEqual([2, 3, 4, 5, 6, 7])

      expect(report.got).toMatchObject({ id: 10, name: 'bob-Deploy-Key', user_id: 3, active: true })
      expect(report.self).toMatchObject({ id: 1, name: 'root-admin', user_id: 1 })

      // obj.delete() on token 6, manager.delete(9), and bob's delete('self') of token 8.
      expect(report.revoked_after_delete).toEqual({ '6': true, '9': true, '8': true })
      expect(report.active_after_delete).toEqual([1, 2, 3, 7, 10])

      expect(report.errors).toEqual({
        // python-gitlab raises its authentication error for every 401, taking "message", else "error"
        // (the OAuth error code of an invalid token) from our body.
        wrong_token_list: { type: 'GitlabAuthenticationError', code: 401, message: '401 Unauthorized' },
        revoked_token_list: { type: 'GitlabAuthenticationError', code: 401, message: 'invalid_token' },
        missing_get: { type: 'GitlabHttpError', code: 404, message: '404 Not Found' },
        missing_delete: { type: 'GitlabDeleteError', code: 404, message: '404 Not found' },
        missing_user: { type: 'GitlabGetError', code: 404, message: '404 User Not Found' },
        bad_filter: { type: 'GitlabListError', code: 400, message: 'state does not have a valid value' },
      })
      console.info(`python-gitlab ${report.python_gitlab}, get by id through ${report.get_method}`)
    } finally {
      await server.close()
    }
  }, 90_000)
})
