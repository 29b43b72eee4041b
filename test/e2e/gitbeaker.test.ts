import { GitbeakerRequestError, Gitlab } from '@gitbeaker/rest'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ALL_IDS, SECRETS, SEED } from './support/seed.js'
import { type Served, serve, stopAll } from './support/serve.js'

// gitbeaker 43 (@gitbeaker/rest) against `patkit serve` on a real socket. How gitbeaker addresses the
// API (read from @gitbeaker/core's PersonalAccessTokens resource): `all(options)` is
// GET personal_access_tokens with camelCase options sent as snake_case query parameters, following
// `Link: <URL>; rel="next"`; `show()` without a tokenId is GET personal_access_tokens/self, and with
// one GET personal_access_tokens/:id; `rotate(id | 'self', { expiresAt })` is POST .../:id/rotate with
// a JSON body; `remove()` is DELETE .../self or .../:id with a `{}` JSON body.

afterAll(stopAll)

const client = (url: string, token: string) => new Gitlab({ host: url, token })

/** The error a gitbeaker call rejects with: the status and the description it took from our body. */
async function failure(
  promise: Promise<unknown>,
): Promise<{ message: string; description: string; status: number }> {
  try {
    await promise
  } catch (error) {
    if (!(error instanceof GitbeakerRequestError)) throw error
    return {
      message: error.message,
      description: error.cause?.description ?? '',
      status: error.cause?.response.status ?? 0,
    }
  }
  throw new Error('the call succeeded; a failure was expected')
}

const ids = (tokens: readonly { id: number }[]) => tokens.map((t) => t.id)

/** `YYYY-MM-DD` plus whole days, in UTC: string arithmetic, no clock. */
function plusDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number)
  return new Date(Date.UTC(y ?? 0, (m ?? 1) - 1, (d ?? 1) + days)).toISOString().slice(0, 10)
}

describe('gitbeaker: reading (one server, only root authenticates)', () => {
  let server: Served
  let api: InstanceType<typeof Gitlab>
  beforeAll(async () => {
    server = await serve(SEED)
    api = client(server.url, SECRETS.root)
  })
  afterAll(() => server.close())

  it('all() lists every token, id ascending', async () => {
    expect(ids(await api.PersonalAccessTokens.all())).toEqual(ALL_IDS)
  })

  it.each([
    ['userId', { userId: 2 }, [2, 3, 4, 5, 6, 7]],
    ['userId (another user)', { userId: 3 }, [8, 9, 10]],
    ['revoked: true', { revoked: true }, [4]],
    ['revoked: false', { revoked: false }, [1, 2, 3, 5, 6, 7, 8, 9, 10]],
    // alice-old expired on 2025-06-30; inactive = revoked or expired.
    ['state: inactive', { state: 'inactive' }, [4, 5]],
    ['state: active', { state: 'active' }, [1, 2, 3, 6, 7, 8, 9, 10]],
    // GitLab's search: case-insensitive substring of the name.
    ['search', { search: 'deploy' }, [4, 10]],
    ['search (two terms, ANDed)', { search: 'alice cron' }, [7]],
    // Inclusive bounds: token 3 was created at exactly 2025-01-03T00:00:00Z.
    ['createdBefore', { createdBefore: '2025-01-03T00:00:00Z' }, [1, 2, 3]],
    ['createdAfter', { createdAfter: '2025-01-08T00:00:00Z' }, [8, 9, 10]],
    [
      'createdAfter and createdBefore',
      { createdAfter: '2025-01-04T00:00:00Z', createdBefore: '2025-01-05T00:00:00Z' },
      [4, 5],
    ],
    // Never-used tokens never match a last_used filter. Root's token was used by this very request.
    ['lastUsedBefore', { lastUsedBefore: '2025-03-01T00:00:00Z' }, [2, 3]],
    ['lastUsedAfter', { lastUsedAfter: '2025-03-01T00:00:00Z' }, [1, 3, 8]],
    ['filters combined', { userId: 2, state: 'active', search: 'alice' }, [2, 3, 6, 7]],
  ] as const)('all() with %s', async (_name, options, expected) => {
    expect(ids(await api.PersonalAccessTokens.all(options))).toEqual(expected)
  })

  it('all() follows Link rel="next" across pages: every token once, in id order', async () => {
    const { data, paginationInfo } = await api.PersonalAccessTokens.all({
      perPage: 2,
      maxPages: 10,
      pagination: 'offset',
      showExpanded: true,
    })
    expect(ids(data)).toEqual(ALL_IDS)
    // The last page it fetched: page 5 of 5.
    expect(paginationInfo).toEqual({
      total: 10,
      next: null,
      current: 5,
      previous: 4,
      perPage: 2,
      totalPages: 5,
    })
  })

  it('all() keeps the filters on the pages that follow (3 pages of a user)', async () => {
    expect(ids(await api.PersonalAccessTokens.all({ userId: 2, perPage: 2 }))).toEqual([2, 3, 4, 5, 6, 7])
    expect(ids(await api.PersonalAccessTokens.all({ userId: 2, perPage: 3, state: 'active' }))).toEqual([
      2, 3, 6, 7,
    ])
  })

  it('all() stops at maxPages', async () => {
    expect(ids(await api.PersonalAccessTokens.all({ perPage: 3, maxPages: 2 }))).toEqual([1, 2, 3, 4, 5, 6])
  })

  it('all() with page fetches that page only', async () => {
    expect(ids(await api.PersonalAccessTokens.all({ perPage: 3, page: 2 }))).toEqual([4, 5, 6])
  })

  it('show() without an id is the token itself; show({ tokenId }) another', async () => {
    const self = await api.PersonalAccessTokens.show()
    expect(self).toMatchObject({ id: 1, name: 'root-admin', user_id: 1, scopes: ['api'], active: true })
    expect(self).not.toHaveProperty('token')
    expect(await api.PersonalAccessTokens.show({ tokenId: 10 })).toMatchObject({
      id: 10,
      name: 'bob-Deploy-Key',
      user_id: 3,
      scopes: ['read_api', 'read_repository'],
      created_at: '2025-01-10T00:00:00.000Z',
      expires_at: '2099-12-31',
      last_used_at: null,
      revoked: false,
      active: true,
      description: null,
    })
  })

  it('errors carry our bodies: 401 for a wrong token', async () => {
    const e = await failure(client(server.url, 'glpat-wrong-secret-000').PersonalAccessTokens.show())
    expect(e).toEqual({ message: '401 Unauthorized', description: '401 Unauthorized', status: 401 })
  })

  it('errors carry our bodies: a revoked token is invalid_token (gitbeaker shows the error code)', async () => {
    const e = await failure(client(server.url, SECRETS.aliceRevoked).PersonalAccessTokens.all())
    expect(e).toEqual({ message: 'invalid_token', description: 'invalid_token', status: 401 })
  })

  it('errors carry our bodies: 404 for an admin asking for a missing token', async () => {
    const e = await failure(api.PersonalAccessTokens.show({ tokenId: 999 }))
    expect(e).toEqual({ message: '404 Not Found', description: '404 Not Found', status: 404 })
  })

  it('errors carry our bodies: 401 for a user asking for another user’s token', async () => {
    const e = await failure(client(server.url, SECRETS.bob).PersonalAccessTokens.show({ tokenId: 2 }))
    expect(e).toEqual({ message: '401 Unauthorized', description: '401 Unauthorized', status: 401 })
  })

  it('errors carry our bodies: 401 for a user filtering on another user', async () => {
    const e = await failure(client(server.url, SECRETS.bob).PersonalAccessTokens.all({ userId: 2 }))
    expect(e.status).toBe(401)
    expect(e.description).toBe('401 Unauthorized')
  })

  it('errors carry our bodies: 400 for a bad filter value', async () => {
    const e = await failure(api.PersonalAccessTokens.all({ createdAfter: 'yesterday' }))
    expect(e).toEqual({
      message: 'created_after is invalid',
      description: 'created_after is invalid',
      status: 400,
    })
  })
})

// Each test makes several HTTP round trips to a patkit serve child process: seconds on a busy machine.
describe('gitbeaker: rotating and revoking (a fresh server per test)', { timeout: 30_000 }, () => {
  let server: Served
  beforeEach(async () => {
    server = await serve(SEED)
  })
  afterEach(() => server.close())

  it('rotate(id) answers the successor with its secret; the old secret stops working', async () => {
    const alice = client(server.url, SECRETS.alice)
    const rotated = await alice.PersonalAccessTokens.rotate(6)
    expect(rotated).toMatchObject({ id: 11, name: 'alice-backup', user_id: 2, revoked: false, active: true })
    expect(rotated.token).toMatch(/^glpat-[A-Za-z0-9_-]{32,}\.01\.[0-9a-z]{9}$/)
    expect(await alice.PersonalAccessTokens.show({ tokenId: 6 })).toMatchObject({
      revoked: true,
      active: false,
    })
    // The default expiry is a week after the day it was created, by the server's clock (the test reads none).
    expect(rotated.expires_at).toBe(plusDays(rotated.created_at.slice(0, 10), 7))
  })

  it('rotate(id, { expiresAt }) sends expires_at', async () => {
    const root = client(server.url, SECRETS.root)
    const first = await root.PersonalAccessTokens.rotate(9)
    const wanted = plusDays(first.expires_at ?? '', 30)
    const second = await root.PersonalAccessTokens.rotate(first.id, { expiresAt: wanted })
    expect(second).toMatchObject({ id: first.id + 1, name: 'bob-cron', user_id: 3, expires_at: wanted })
  })

  it("rotate('self') with and without expiresAt; each new secret authenticates, each old one is revoked", async () => {
    const first = await client(server.url, SECRETS.alice).PersonalAccessTokens.rotate('self')
    expect(first).toMatchObject({ id: 11, name: 'alice-laptop', user_id: 2 })
    const wanted = plusDays(first.expires_at ?? '', 1)
    const second = await client(server.url, first.token).PersonalAccessTokens.rotate('self', {
      expiresAt: wanted,
    })
    expect(second).toMatchObject({ id: 12, name: 'alice-laptop', expires_at: wanted })
    expect(await client(server.url, second.token).PersonalAccessTokens.show()).toMatchObject({
      id: 12,
      active: true,
    })
    const old = await failure(client(server.url, SECRETS.alice).PersonalAccessTokens.show())
    expect(old).toEqual({ message: 'invalid_token', description: 'invalid_token', status: 401 })
  })

  it('rotating with a revoked secret is reuse: 401, and the active successor is revoked too', async () => {
    const rotated = await client(server.url, SECRETS.alice).PersonalAccessTokens.rotate('self')
    const reuse = await failure(client(server.url, SECRETS.alice).PersonalAccessTokens.rotate('self'))
    expect(reuse.status).toBe(401)
    expect(reuse.description).toBe('invalid_token')
    const root = client(server.url, SECRETS.root)
    expect(await root.PersonalAccessTokens.show({ tokenId: rotated.id })).toMatchObject({ revoked: true })
  })

  it('rotate errors: an expiry beyond a year is 400 with GitLab’s message', async () => {
    const root = client(server.url, SECRETS.root)
    const first = await root.PersonalAccessTokens.rotate(9)
    const e = await failure(
      root.PersonalAccessTokens.rotate(first.id, { expiresAt: plusDays(first.expires_at ?? '', 366) }),
    )
    expect(e.status).toBe(400)
    expect(e.description).toMatch(/^400 Bad request - Expiration date must be /)
  })

  it('rotate errors: a revoked token by id is 400 "Token already revoked"; read_api is 403 insufficient_scope', async () => {
    const revoked = await failure(client(server.url, SECRETS.root).PersonalAccessTokens.rotate(4))
    expect(revoked).toEqual({
      message: '400 Bad request - Token already revoked',
      description: '400 Bad request - Token already revoked',
      status: 400,
    })
    const readOnly = await failure(client(server.url, SECRETS.aliceReadApi).PersonalAccessTokens.rotate(3))
    expect(readOnly).toEqual({
      message: 'insufficient_scope',
      description: 'insufficient_scope',
      status: 403,
    })
  })

  it('remove({ tokenId }) revokes that token (204); the list shows it revoked', async () => {
    const alice = client(server.url, SECRETS.alice)
    const removed = await alice.PersonalAccessTokens.remove({ tokenId: 6, showExpanded: true })
    expect(removed.status).toBe(204)
    expect(await alice.PersonalAccessTokens.show({ tokenId: 6 })).toMatchObject({
      id: 6,
      revoked: true,
      active: false,
    })
    expect(ids(await alice.PersonalAccessTokens.all({ revoked: true }))).toEqual([4, 6])
  })

  it('remove() without an id revokes the token itself; it no longer authenticates', async () => {
    const bob = client(server.url, SECRETS.bob)
    expect((await bob.PersonalAccessTokens.remove({ showExpanded: true })).status).toBe(204)
    const e = await failure(bob.PersonalAccessTokens.show())
    expect(e).toEqual({ message: 'invalid_token', description: 'invalid_token', status: 401 })
    expect(await client(server.url, SECRETS.root).PersonalAccessTokens.show({ tokenId: 8 })).toMatchObject({
      revoked: true,
    })
  })

  it('remove errors: a missing id is 404 "404 Not found"; another user’s token is 400', async () => {
    const missing = await failure(
      client(server.url, SECRETS.root).PersonalAccessTokens.remove({ tokenId: 999 }),
    )
    expect(missing).toEqual({ message: '404 Not found', description: '404 Not found', status: 404 })
    const foreign = await failure(client(server.url, SECRETS.bob).PersonalAccessTokens.remove({ tokenId: 2 }))
    expect(foreign).toEqual({ message: '400 Bad request', description: '400 Bad request', status: 400 })
  })
})
