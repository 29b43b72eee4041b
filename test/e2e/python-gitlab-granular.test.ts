import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { findPython } from './support/python.js'
import { SECRETS, SEED } from './support/seed.js'
import { serve, stopAll } from './support/serve.js'

// python-gitlab (Debian's python3-gitlab) creates and uses a fine-grained personal access token
// against `patkit serve` at its default release (19.6: creation on POST /user/personal_access_tokens
// from 19.2, `granular_scopes` on the answers from 19.6). test/e2e/python_gitlab_granular_check.py
// drives the client, through its generic `http_post` where no manager can send `granular_scopes`, and
// prints what it saw; this test asserts it. Skipped without python3-gitlab unless PATKIT_REQUIRE_E2E=1.

const SCRIPT = join(import.meta.dirname, 'python_gitlab_granular_check.py')
const run = promisify(execFile)

const found = findPython(['gitlab'], 'python3-gitlab')
const required = process.env['PATKIT_REQUIRE_E2E'] === '1'

afterAll(stopAll)

interface Failure {
  type: string
  code: number
  body: unknown
}

interface Report {
  python_gitlab: string
  managers_can_send: boolean
  created: Record<string, unknown>
  fine_user: { id: number; username: string }
  listed: { id: number; granular: boolean; granular_scopes?: unknown }[]
  refused: Record<string, Failure | null>
  rotated: Record<string, unknown>
  rotated_user: string
  old_token_after_rotation: Failure | null
  seen_by_root: Record<string, unknown>
}

// GitLab's PersonalAccessTokenGranularScope entity: access, permissions, project_id, group_id.
const SCOPES = [
  {
    access: 'user',
    permissions: ['read_user', 'read_personal_access_token', 'rotate_personal_access_token'],
    project_id: null,
    group_id: null,
  },
]

/** GitLab's 403 for a granular token that lacks a route's permission (granular-check.ts). */
const denied = (boundary: string, permission: string) => ({
  error: 'insufficient_granular_scope',
  error_description: `Access denied: This operation requires a fine-grained personal access token with the following ${boundary} permissions: [${permission}].`,
})

describe('python-gitlab with a fine-grained token against patkit serve', () => {
  it('creates one with granular_scopes, authenticates with it, is refused outside its scopes, lists it and rotates it keeping its scopes', async (ctx) => {
    if ('reason' in found) {
      if (required) throw new Error(`PATKIT_REQUIRE_E2E=1 but ${found.reason}`)
      console.warn(`skipped: ${found.reason}`)
      ctx.skip(found.reason)
      return
    }
    const server = await serve(SEED)
    try {
      const { stdout } = await run(found.python, [SCRIPT, server.url, SECRETS.root, SECRETS.alice], {
        timeout: 60_000,
        encoding: 'utf8',
      })
      const report = JSON.parse(stdout) as Report

      expect(report.created).toMatchObject({
        id: 11,
        name: 'python-fine',
        user_id: 2,
        granular: true,
        scopes: [],
        granular_scopes: SCOPES,
      })
      // auth() is GET /user, which read_user at the user boundary grants.
      expect(report.fine_user).toEqual({ id: 2, username: 'alice' })
      // A non-administrator lists their own tokens: the seeded 2-7 and the new one, the only granular.
      expect(report.listed.map((t) => [t.id, t.granular])).toEqual([
        [2, false],
        [3, false],
        [4, false],
        [5, false],
        [6, false],
        [7, false],
        [11, true],
      ])
      expect(report.listed.at(-1)?.granular_scopes).toEqual(SCOPES)
      expect(report.listed.slice(0, -1).some((t) => 'granular_scopes' in t)).toBe(false)

      // python-gitlab raises its list error for the 403 of a list, its plain HTTP error for http_post's.
      expect(report.refused).toEqual({
        users_list: { type: 'GitlabListError', code: 403, body: denied('instance', 'User: Read') },
        create_token: {
          type: 'GitlabHttpError',
          code: 403,
          body: denied('user', 'Personal Access Token: Create'),
        },
      })

      // The rotated token keeps the scopes, authenticates, and the old one is revoked.
      expect(report.rotated).toMatchObject({
        id: 12,
        name: 'python-fine',
        granular: true,
        scopes: [],
        granular_scopes: SCOPES,
      })
      expect(report.rotated_user).toBe('alice')
      expect(report.old_token_after_rotation).toEqual({
        type: 'GitlabAuthenticationError',
        code: 401,
        body: {
          error: 'invalid_token',
          error_description: 'Token was revoked. You have to re-authorize from the user.',
        },
      })
      expect(report.seen_by_root).toMatchObject({
        id: 12,
        user_id: 2,
        granular: true,
        granular_scopes: SCOPES,
      })
      console.info(
        `python-gitlab ${report.python_gitlab}: ${report.managers_can_send ? 'a manager' : 'http_post'} sent granular_scopes`,
      )
    } finally {
      await server.close()
    }
  }, 90_000)
})
