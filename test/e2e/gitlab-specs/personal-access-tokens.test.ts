import { describe, expect, it } from 'vitest'
import { daysFromToday, gitlabSpecWorld, ids, type Reply } from './world.js'

// GitLab's spec/requests/api/personal_access_tokens_spec.rb (gitlabhq/gitlabhq, commit 08d259cc),
// one test per `it` (each row of a `where` table is its own example in RSpec, and its own test here),
// titled as in GitLab, over real HTTP against the fake. docs/conformance.md maps each `it` to its test
// and lists the ones left out, with the reason.

const PATH = '/personal_access_tokens'
/** `(DateTime.now + 1).to_s` at the fake's clock. */
const TOMORROW_DATETIME = `${daysFromToday(1)}T10:00:00+00:00`

/** RSpec's shared example 'response as expected': status, then the ids (or the error body) and the count. */
function responseAsExpected(
  r: Reply,
  status: number,
  resultCount: number,
  result: number[] | Record<string, string>,
) {
  expect(r.status).toBe(status)
  if (status === 400) expect(r.json).toEqual(result)
  else expect(ids(r)).toEqual(expect.arrayContaining(result as number[]))
  const json = r.json as unknown[] | Record<string, unknown>
  expect(Array.isArray(json) ? json.length : Object.keys(json).length).toBe(resultCount)
}

describe('GET /personal_access_tokens', () => {
  describe('logged in as an Administrator', () => {
    async function adminWorld() {
      const w = await gitlabSpecWorld()
      const currentUser = await w.admin()
      const currentUsersToken = await w.token({ user: currentUser, scopes: ['api', 'admin_mode'] })
      const get = (params: Record<string, unknown>) =>
        w.api('GET', PATH, { personalAccessToken: currentUsersToken }, params)
      return { ...w, currentUser, currentUsersToken, get }
    }

    it('returns all PATs by default', async () => {
      const w = await adminWorld()
      const r = await w.api('GET', PATH, { user: w.currentUser })
      expect(r.status).toBe(200)
      expect((r.json as unknown[]).length).toBe((await w.allTokenIds()).length)
    })

    describe('filtered with user_id parameter', () => {
      it('returns only PATs belonging to that user', async () => {
        const w = await adminWorld()
        const token = await w.token()
        const impersonated = await w.token({
          impersonation: true,
          user: { id: token.userId, username: '', admin: false },
        })
        const r = await w.api(
          'GET',
          PATH,
          { user: w.currentUser, adminMode: true },
          { user_id: token.userId },
        )
        expect(r.status).toBe(200)
        const list = r.json as { id: number; user_id: number }[]
        expect(list.length).toBe(2)
        expect(list[0]?.user_id).toBe(token.userId)
        expect(list.at(-1)?.id).toBe(impersonated.id)
      })

      describe('validations for user_id parameter', () => {
        it('returns 404 if user_id is provided but does not exist', async () => {
          const w = await adminWorld()
          const r = await w.api('GET', PATH, { user: w.currentUser, adminMode: true }, { user_id: 9_999_999 })
          expect(r.status).toBe(404)
          expect((r.json as { message: string }).message).toBe('404 Not Found')
        })

        it('returns 404 if user_id is explicitly blank', async () => {
          const w = await adminWorld()
          const r = await w.api('GET', PATH, { user: w.currentUser, adminMode: true }, { user_id: '' })
          expect(r.status).toBe(404)
          expect((r.json as { message: string }).message).toBe('404 Not Found')
        })
      })
    })

    describe('filter with revoked parameter', () => {
      async function fixtures() {
        const w = await adminWorld()
        const revokedToken = await w.token({ revoked: true })
        const notRevoked1 = await w.token({ revoked: false })
        const notRevoked2 = await w.token({ revoked: false })
        return { w, revokedToken, notRevoked1, notRevoked2 }
      }
      it('status, count and result as expected (revoked: true)', async () => {
        const { w, revokedToken } = await fixtures()
        responseAsExpected(await w.get({ revoked: true }), 200, 1, [revokedToken.id])
      })
      it('status, count and result as expected (revoked: false)', async () => {
        const { w, notRevoked1, notRevoked2 } = await fixtures()
        responseAsExpected(await w.get({ revoked: false }), 200, 3, [
          notRevoked1.id,
          notRevoked2.id,
          w.currentUsersToken.id,
        ])
      })
      it("status, count and result as expected (revoked: 'asdf')", async () => {
        const { w } = await fixtures()
        responseAsExpected(await w.get({ revoked: 'asdf' }), 400, 1, { error: 'revoked is invalid' })
      })
    })

    describe('filter with active parameter', () => {
      async function fixtures() {
        const w = await adminWorld()
        const inactive1 = await w.token({ revoked: true })
        const inactive2 = await w.token({ expiresAt: '2022-01-01' })
        const active = await w.token()
        return { w, inactive1, inactive2, active }
      }
      it("status, count and result as expected (state: 'inactive')", async () => {
        const { w, inactive1, inactive2 } = await fixtures()
        responseAsExpected(await w.get({ state: 'inactive' }), 200, 2, [inactive1.id, inactive2.id])
      })
      it("status, count and result as expected (state: 'active')", async () => {
        const { w, active } = await fixtures()
        responseAsExpected(await w.get({ state: 'active' }), 200, 2, [active.id, w.currentUsersToken.id])
      })
      it("status, count and result as expected (state: 'asdf')", async () => {
        const { w } = await fixtures()
        responseAsExpected(await w.get({ state: 'asdf' }), 400, 1, {
          error: 'state does not have a valid value',
        })
      })
    })

    describe('filter with created parameter', () => {
      async function fixtures() {
        const w = await adminWorld()
        const token1 = await w.token({ createdAt: new Date('2022-01-01T12:30:25Z') })
        return { w, token1 }
      }
      describe('test created_before', () => {
        const rows: [string, number, number, 'token1' | 'none' | 'error'][] = [
          ['2022-01-02', 200, 1, 'token1'],
          ['2022-01-01', 200, 0, 'none'],
          ['2022-01-01T12:30:24', 200, 0, 'none'],
          ['2022-01-01T12:30:25', 200, 1, 'token1'],
          ['2022-01-01T:12:30:26', 200, 1, 'token1'],
          ['asdf', 400, 1, 'error'],
        ]
        for (const [createdAt, status, count, result] of rows) {
          it(`status, count and result as expected (created_before: '${createdAt}')`, async () => {
            const { w, token1 } = await fixtures()
            responseAsExpected(
              await w.get({ created_before: createdAt }),
              status,
              count,
              result === 'error'
                ? { error: 'created_before is invalid' }
                : result === 'token1'
                  ? [token1.id]
                  : [],
            )
          })
        }
      })
      describe('test created_after', () => {
        const rows: [string, number, number, 'cut' | 'both' | 'none' | 'error'][] = [
          ['2022-01-03', 200, 1, 'cut'],
          ['2022-01-01', 200, 2, 'both'],
          ['2022-01-01T12:30:25', 200, 2, 'both'],
          ['2022-01-01T12:30:26', 200, 1, 'cut'],
          [TOMORROW_DATETIME, 200, 0, 'none'],
          ['asdf', 400, 1, 'error'],
        ]
        for (const [createdAt, status, count, result] of rows) {
          it(`status, count and result as expected (created_after: '${createdAt}')`, async () => {
            const { w, token1 } = await fixtures()
            const cut = w.currentUsersToken.id
            const expected = { cut: [cut], both: [token1.id, cut], none: [] }
            responseAsExpected(
              await w.get({ created_after: createdAt }),
              status,
              count,
              result === 'error' ? { error: 'created_after is invalid' } : expected[result],
            )
          })
        }
      })
    })

    describe('filter with last_used parameter', () => {
      async function fixtures() {
        const w = await adminWorld()
        const token1 = await w.token({ lastUsedAt: new Date('2022-01-01T12:30:25Z') })
        await w.token() // never_used_token
        return { w, token1 }
      }
      describe('test last_used_before', () => {
        const rows: [string, number, number, 'token1' | 'none' | 'error'][] = [
          ['2022-01-02', 200, 1, 'token1'],
          ['2022-01-01', 200, 0, 'none'],
          ['2022-01-01T12:30:24', 200, 0, 'none'],
          ['2022-01-01T12:30:25', 200, 1, 'token1'],
          ['2022-01-01T12:30:26', 200, 1, 'token1'],
          ['asdf', 400, 1, 'error'],
        ]
        for (const [lastUsedAt, status, count, result] of rows) {
          it(`status, count and result as expected (last_used_before: '${lastUsedAt}')`, async () => {
            const { w, token1 } = await fixtures()
            responseAsExpected(
              await w.get({ last_used_before: lastUsedAt }),
              status,
              count,
              result === 'error'
                ? { error: 'last_used_before is invalid' }
                : result === 'token1'
                  ? [token1.id]
                  : [],
            )
          })
        }
      })
      describe('test last_used_after', () => {
        // The caller's own token was used by this very request (GitLab's LastUsedService), so it is
        // after every past date.
        const rows: [string, number, number, 'cut' | 'both' | 'none' | 'error'][] = [
          ['2022-01-03', 200, 1, 'cut'],
          ['2022-01-01', 200, 2, 'both'],
          ['2022-01-01T12:30:26', 200, 1, 'cut'],
          ['2022-01-01T12:30:25', 200, 2, 'both'],
          [TOMORROW_DATETIME, 200, 0, 'none'],
          ['asdf', 400, 1, 'error'],
        ]
        for (const [lastUsedAt, status, count, result] of rows) {
          it(`status, count and result as expected (last_used_after: '${lastUsedAt}')`, async () => {
            const { w, token1 } = await fixtures()
            const cut = w.currentUsersToken.id
            const expected = { cut: [cut], both: [token1.id, cut], none: [] }
            responseAsExpected(
              await w.get({ last_used_after: lastUsedAt }),
              status,
              count,
              result === 'error' ? { error: 'last_used_after is invalid' } : expected[result],
            )
          })
        }
      })
    })

    describe('filter with expires parameter', () => {
      async function fixtures() {
        const w = await adminWorld()
        const token1 = await w.token({ expiresAt: '2022-01-01' })
        return { w, token1 }
      }
      describe('test expires_before', () => {
        const rows: [string, number, number, 'token1' | 'none' | 'error'][] = [
          ['2022-01-02', 200, 1, 'token1'],
          ['2022-01-01', 200, 0, 'none'],
          ['2022-01-01T12:30:24', 200, 0, 'none'],
          ['asdf', 400, 1, 'error'],
        ]
        for (const [expiresAt, status, count, result] of rows) {
          it(`status, count and result as expected (expires_before: '${expiresAt}')`, async () => {
            const { w, token1 } = await fixtures()
            responseAsExpected(
              await w.get({ expires_before: expiresAt }),
              status,
              count,
              result === 'error'
                ? { error: 'expires_before is invalid' }
                : result === 'token1'
                  ? [token1.id]
                  : [],
            )
          })
        }
      })
      describe('test expires_after', () => {
        const rows: [string, number, number, 'cut' | 'both' | 'error'][] = [
          ['2022-01-03', 200, 1, 'cut'],
          ['2022-01-01', 200, 2, 'both'],
          ['2022-01-01T12:30:26', 200, 2, 'both'],
          [TOMORROW_DATETIME, 200, 1, 'cut'],
          ['asdf', 400, 1, 'error'],
        ]
        for (const [expiresAt, status, count, result] of rows) {
          it(`status, count and result as expected (expires_after: '${expiresAt}')`, async () => {
            const { w, token1 } = await fixtures()
            const cut = w.currentUsersToken.id
            const expected = { cut: [cut], both: [token1.id, cut] }
            responseAsExpected(
              await w.get({ expires_after: expiresAt }),
              status,
              count,
              result === 'error' ? { error: 'expires_after is invalid' } : expected[result],
            )
          })
        }
      })
    })

    describe('filter with search parameter', () => {
      const rows: [string, number, 'both' | 'all' | 'token1' | 'none'][] = [
        ['test', 2, 'both'],
        ['', 3, 'all'],
        ['test_1', 1, 'token1'],
        ['asdf', 0, 'none'],
      ]
      for (const [pattern, count, result] of rows) {
        it(`status, count and result as expected (search: '${pattern}')`, async () => {
          const w = await adminWorld()
          const token1 = await w.token({ name: 'test_1' })
          const token2 = await w.token({ name: 'test_2' })
          const expected = {
            both: [token1.id, token2.id],
            all: [token1.id, token2.id, w.currentUsersToken.id],
            token1: [token1.id],
            none: [],
          }
          responseAsExpected(await w.get({ search: pattern }), 200, count, expected[result])
        })
      }
    })

    describe('filter created_before/created_after combined with last_used_before/last_used_after', () => {
      // RSpec's `nil` parameter reaches GitLab as a key without a value, which Grape ignores: sent
      // here as an empty value.
      const rows: [string, string, number, 'token1' | 'none' | 'both'][] = [
        ['2022-01-03', '2022-01-01', 1, 'token1'],
        ['2022-01-01', '2022-01-03', 0, 'none'],
        ['2022-01-03', '', 1, 'token1'],
        ['', '2022-01-01', 2, 'both'],
      ]
      for (const kind of ['created', 'last_used'] as const) {
        for (const [before, after, count, result] of rows) {
          it(`status, count and result as expected (${kind}_before: '${before}', ${kind}_after: '${after}')`, async () => {
            const w = await adminWorld()
            const date = new Date('2022-01-02T00:00:00Z')
            const token1 = await w.token({ createdAt: date, lastUsedAt: date })
            const expected = { token1: [token1.id], none: [], both: [token1.id, w.currentUsersToken.id] }
            responseAsExpected(
              await w.get({ [`${kind}_before`]: before, [`${kind}_after`]: after }),
              200,
              count,
              expected[result],
            )
          })
        }
      }
    })

    for (const kind of ['created', 'last_used'] as const) {
      describe(`filter ${kind}_before and ${kind}_after combined is valid`, () => {
        const rows: [string, string, boolean][] = [
          ['2022-01-02', '2022-01-02', true],
          ['2022-01-03', '2022-01-01', true],
          ['2022-01-01', '2022-01-03', false],
          ['2022-01-03', '', true],
          ['', '2022-01-01', true],
        ]
        for (const [before, after, includesToken1] of rows) {
          it(`returns all valid tokens (${kind}_before: '${before}', ${kind}_after: '${after}')`, async () => {
            const w = await adminWorld()
            const date = new Date('2022-01-02T00:00:00Z')
            const token1 = await w.token(kind === 'created' ? { createdAt: date } : { lastUsedAt: date })
            const r = await w.get({ [`${kind}_before`]: before, [`${kind}_after`]: after })
            expect(r.status).toBe(200)
            // GitLab checks the inclusion only when a result is expected; the exclusion is checked too.
            expect(ids(r).includes(token1.id)).toBe(includesToken1)
          })
        }
      })
    }
  })

  describe('logged in as a non-Administrator', () => {
    async function userWorld() {
      const w = await gitlabSpecWorld()
      const currentUser = await w.user()
      const currentUsersToken = await w.token({ user: currentUser })
      const get = (params: Record<string, unknown>) =>
        w.api('GET', PATH, { personalAccessToken: currentUsersToken }, params)
      return { ...w, currentUser, currentUsersToken, get }
    }

    it('returns all PATs belonging to the signed-in user', async () => {
      const w = await userWorld()
      await w.token()
      const r = await w.api('GET', PATH, { personalAccessToken: w.currentUsersToken })
      expect(r.status).toBe(200)
      const list = r.json as { id: number; user_id: number }[]
      expect(list.length).toBe(1)
      expect(new Set(list.map((t) => t.id))).toEqual(new Set([w.currentUsersToken.id]))
      expect(new Set(list.map((t) => t.user_id))).toEqual(new Set([w.currentUser.id]))
    })

    describe('filtered with user_id parameter', () => {
      it('returns PATs belonging to the specific user', async () => {
        const w = await userWorld()
        await w.user()
        const r = await w.api(
          'GET',
          PATH,
          { user: w.currentUser, personalAccessToken: w.currentUsersToken },
          { user_id: w.currentUser.id },
        )
        expect(r.status).toBe(200)
        const list = r.json as { id: number; user_id: number }[]
        expect(list.length).toBe(1)
        expect(list.map((t) => t.id)).toEqual([w.currentUsersToken.id])
        expect(list.map((t) => t.user_id)).toEqual([w.currentUser.id])
      })

      it('is unauthorized if filtered by a user other than current_user', async () => {
        const w = await userWorld()
        const user = await w.user()
        const r = await w.api(
          'GET',
          PATH,
          { user: w.currentUser, personalAccessToken: w.currentUsersToken },
          { user_id: user.id },
        )
        expect(r.status).toBe(401)
      })
    })

    describe('filter with revoked parameter', () => {
      async function fixtures() {
        const w = await userWorld()
        const usersRevokedToken = await w.token({ revoked: true, user: w.currentUser })
        await w.token({ revoked: false })
        await w.token({ revoked: true })
        return { w, usersRevokedToken }
      }
      it('status, count and result as expected (revoked: true)', async () => {
        const { w, usersRevokedToken } = await fixtures()
        responseAsExpected(await w.get({ revoked: true }), 200, 1, [usersRevokedToken.id])
      })
      it('status, count and result as expected (revoked: false)', async () => {
        const { w } = await fixtures()
        responseAsExpected(await w.get({ revoked: false }), 200, 1, [w.currentUsersToken.id])
      })
    })

    describe('filter with active parameter', () => {
      async function fixtures() {
        const w = await userWorld()
        const usersInactiveToken = await w.token({ revoked: true, user: w.currentUser })
        await w.token({ expiresAt: '2022-01-01' })
        await w.token()
        return { w, usersInactiveToken }
      }
      it("status, count and result as expected (state: 'inactive')", async () => {
        const { w, usersInactiveToken } = await fixtures()
        responseAsExpected(await w.get({ state: 'inactive' }), 200, 1, [usersInactiveToken.id])
      })
      it("status, count and result as expected (state: 'active')", async () => {
        const { w } = await fixtures()
        responseAsExpected(await w.get({ state: 'active' }), 200, 1, [w.currentUsersToken.id])
      })
    })

    describe('filter with created parameter', () => {
      async function fixtures() {
        const w = await userWorld()
        const at = new Date('2022-01-02T12:30:25Z')
        const token1 = await w.token({ createdAt: at, user: w.currentUser })
        await w.token({ createdAt: at })
        return { w, token1 }
      }
      it('status, count and result as expected (created_before)', async () => {
        const { w, token1 } = await fixtures()
        responseAsExpected(await w.get({ created_before: '2022-01-03' }), 200, 1, [token1.id])
      })
      it('status, count and result as expected (created_after)', async () => {
        const { w, token1 } = await fixtures()
        responseAsExpected(await w.get({ created_after: '2022-01-01' }), 200, 2, [
          token1.id,
          w.currentUsersToken.id,
        ])
      })
    })

    describe('filter with last_used', () => {
      async function fixtures() {
        const w = await userWorld()
        const at = new Date('2022-01-01T12:30:25Z')
        const token1 = await w.token({ lastUsedAt: at, user: w.currentUser })
        await w.token({ lastUsedAt: at })
        await w.token()
        return { w, token1 }
      }
      it('status, count and result as expected (last_used_before)', async () => {
        const { w, token1 } = await fixtures()
        responseAsExpected(await w.get({ last_used_before: '2022-01-02' }), 200, 1, [token1.id])
      })
      it('status, count and result as expected (last_used_after)', async () => {
        const { w, token1 } = await fixtures()
        responseAsExpected(await w.get({ last_used_after: '2022-01-01' }), 200, 2, [
          token1.id,
          w.currentUsersToken.id,
        ])
      })
    })

    describe('filter with search parameter', () => {
      const rows: [string, number, 'token1' | 'mine'][] = [
        ['test', 1, 'token1'],
        ['', 2, 'mine'],
        ['test_1', 1, 'token1'],
      ]
      for (const [pattern, count, result] of rows) {
        it(`status, count and result as expected (search: '${pattern}')`, async () => {
          const w = await userWorld()
          const token1 = await w.token({ name: 'test_1', user: w.currentUser })
          await w.token({ name: 'test_1' })
          const expected = { token1: [token1.id], mine: [token1.id, w.currentUsersToken.id] }
          responseAsExpected(await w.get({ search: pattern }), 200, count, expected[result])
        })
      }
    })
  })

  describe('not authenticated', () => {
    it('is forbidden', async () => {
      const w = await gitlabSpecWorld()
      expect((await w.api('GET', PATH)).status).toBe(401)
    })
  })
})

describe('GET /personal_access_tokens/:id', () => {
  async function fixtures() {
    const w = await gitlabSpecWorld()
    const currentUser = await w.user()
    const userToken = await w.token({ user: currentUser })
    const token1 = await w.token()
    const userReadOnlyToken = await w.token({ scopes: ['read_repository'], user: currentUser })
    return { ...w, currentUser, userToken, token1, userReadOnlyToken, invalidPath: `${PATH}/9999999` }
  }

  describe('when current_user is an administrator', () => {
    async function adminFixtures() {
      const f = await fixtures()
      const adminUser = await f.admin()
      const adminToken = await f.token({ user: adminUser })
      return { ...f, adminUser, adminToken }
    }

    it('returns admins own PAT by id', async () => {
      const f = await adminFixtures()
      const r = await f.api('GET', `${PATH}/${f.adminToken.id}`, { user: f.adminUser, adminMode: true })
      expect(r.status).toBe(200)
      expect((r.json as { id: number }).id).toBe(f.adminToken.id)
    })

    it('returns a different users PAT by id', async () => {
      const f = await adminFixtures()
      const r = await f.api('GET', `${PATH}/${f.userToken.id}`, { user: f.adminUser, adminMode: true })
      expect(r.status).toBe(200)
      expect((r.json as { id: number }).id).toBe(f.userToken.id)
    })

    it('fails to return PAT because no PAT exists with this id', async () => {
      const f = await adminFixtures()
      expect((await f.api('GET', f.invalidPath, { user: f.adminUser, adminMode: true })).status).toBe(404)
    })
  })

  describe('when current_user is not an administrator', () => {
    it('returns users own PAT by id', async () => {
      const f = await fixtures()
      const r = await f.api('GET', `${PATH}/${f.userToken.id}`, { user: f.currentUser })
      expect(r.status).toBe(200)
      expect((r.json as { id: number }).id).toBe(f.userToken.id)
    })

    describe('when there is not an ip recently used', () => {
      it('does not return an ip', async () => {
        const f = await fixtures()
        const r = await f.api('GET', `${PATH}/${f.userToken.id}`, { user: f.currentUser })
        expect(r.status).toBe(200)
        expect((r.json as Record<string, unknown>)['last_used_ip']).toBeUndefined()
      })
    })

    it('fails to return other users PAT by id', async () => {
      const f = await fixtures()
      expect((await f.api('GET', `${PATH}/${f.token1.id}`, { user: f.currentUser })).status).toBe(401)
    })

    it('fails to return PAT because no PAT exists with this id', async () => {
      const f = await fixtures()
      expect((await f.api('GET', f.invalidPath, { user: f.currentUser })).status).toBe(401)
    })

    it('fails to return own PAT by id with read_repository token', async () => {
      const f = await fixtures()
      const r = await f.api('GET', `${PATH}/${f.userToken.id}`, { personalAccessToken: f.userReadOnlyToken })
      expect(r.status).toBe(403)
    })
  })
})

describe('POST /personal_access_tokens/:id/rotate', () => {
  async function fixtures(options: Parameters<typeof gitlabSpecWorld>[0] = {}) {
    const w = await gitlabSpecWorld(options)
    const owner = await w.user()
    const token = await w.token({ user: owner })
    return { ...w, owner, token, path: `${PATH}/${token.id}/rotate` }
  }

  it("rotates user's own token", async () => {
    const f = await fixtures()
    const r = await f.api('POST', f.path, { user: f.owner })
    expect(r.status).toBe(200)
    const json = r.json as { token: string; expires_at: string }
    expect(json.token).not.toBe(f.token.secret)
    expect(json.expires_at).toBe(daysFromToday(7))
  })

  describe('when expiry is defined', () => {
    it("rotates user's own token", async () => {
      const f = await fixtures()
      const expiryDate = '2026-02-01' // Date.today + 1.month
      const r = await f.api('POST', f.path, { user: f.owner }, { expires_at: expiryDate })
      expect(r.status).toBe(200)
      const json = r.json as { token: string; expires_at: string }
      expect(json.token).not.toBe(f.token.secret)
      expect(json.expires_at).toBe(expiryDate)
    })
  })

  describe('when require_token_expiry is false', () => {
    describe('when expiry is not defined', () => {
      it("rotates user's own token with no expiration", async () => {
        const f = await fixtures({ requireExpiry: false })
        const r = await f.api('POST', f.path, { user: f.owner })
        expect(r.status).toBe(200)
        const json = r.json as { token: string; expires_at: string | null }
        expect(json.token).not.toBe(f.token.secret)
        expect(json.expires_at).toBeNull()
      })
    })
  })

  describe('without permission', () => {
    it('returns an error message', async () => {
      const f = await fixtures()
      const anotherUser = await f.user()
      expect((await f.api('POST', f.path, { user: anotherUser })).status).toBe(401)
    })
  })

  describe('when token does not exist', () => {
    const invalidPath = `${PATH}/9999999/rotate`
    describe('for non-admin user', () => {
      it('returns unauthorized', async () => {
        const f = await fixtures()
        const user = await f.user()
        expect((await f.api('POST', invalidPath, { user })).status).toBe(401)
      })
    })
    describe('for admin user', () => {
      it('returns not found', async () => {
        const f = await fixtures()
        const admin = await f.admin()
        expect((await f.api('POST', invalidPath, { user: admin, adminMode: true })).status).toBe(404)
      })
    })
  })
})

describe('DELETE /personal_access_tokens/:id', () => {
  async function fixtures() {
    const w = await gitlabSpecWorld()
    const currentUser = await w.user()
    const token1 = await w.token()
    return { ...w, currentUser, token1, path: `${PATH}/${token1.id}` }
  }

  describe('when current_user is an administrator', () => {
    async function adminFixtures() {
      const f = await fixtures()
      const adminUser = await f.admin()
      const adminToken = await f.token({ user: adminUser })
      const adminReadOnlyToken = await f.token({ scopes: ['read_repository'], user: adminUser })
      return { ...f, adminUser, adminToken, adminReadOnlyToken }
    }

    it('revokes a different users token', async () => {
      const f = await adminFixtures()
      const r = await f.api('DELETE', f.path, { user: f.adminUser, adminMode: true })
      expect(r.status).toBe(204)
      expect((await f.reload(f.token1.id)).revoked).toBe(true)
    })

    it('revokes their own token', async () => {
      const f = await adminFixtures()
      const r = await f.api('DELETE', `${PATH}/${f.adminToken.id}`, { user: f.adminUser, adminMode: true })
      expect(r.status).toBe(204)
    })

    it('fails to revoke a different user token using a readonly scope', async () => {
      const f = await adminFixtures()
      await f.api('DELETE', f.path, { personalAccessToken: f.adminReadOnlyToken })
      expect((await f.reload(f.token1.id)).revoked).toBe(false)
    })
  })

  describe('when current_user is not an administrator', () => {
    async function userFixtures() {
      const f = await fixtures()
      const userToken = await f.token({ user: f.currentUser })
      const impersonated = await f.token({ impersonation: true, user: f.currentUser })
      return { ...f, userToken, impersonated }
    }

    it('fails revokes a different users token', async () => {
      const f = await userFixtures()
      expect((await f.api('DELETE', f.path, { user: f.currentUser })).status).toBe(400)
    })

    it('revokes their own token', async () => {
      const f = await userFixtures()
      expect((await f.api('DELETE', `${PATH}/${f.userToken.id}`, { user: f.currentUser })).status).toBe(204)
    })

    it('cannot revoke impersonation token', async () => {
      const f = await userFixtures()
      const r = await f.api('DELETE', `${PATH}/${f.impersonated.id}`, { user: f.currentUser })
      expect(r.status).toBe(400)
    })
  })
})
