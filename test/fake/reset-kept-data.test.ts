import { afterEach, describe, expect, it } from 'vitest'
import { createFakeGitLab, type FakeGitLab } from '../../src/fake/fake-gitlab.js'
import { START_SNAPSHOT_LIMIT } from '../../src/fake/fake-state.js'
import { memoryStore } from '../../src/memory/index.js'

// Issue 28, item 1: `createFakeGitLab` over a store of the user's reset to the seed alone (without one,
// to nothing): the store's own users and tokens were gone. A reset goes back to all the store held
// once the start was done; above START_SNAPSHOT_LIMIT tokens it is refused, saying why.

const KEPT = 'glpat-kept-store-secret-001'
const ADDED = 'glpat-kept-store-added-0001'

const running: FakeGitLab[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((gitlab) => gitlab.close()))
})

const status = async (gitlab: FakeGitLab, secret: string) => {
  const response = await fetch(`${gitlab.apiUrl}/personal_access_tokens/self`, {
    headers: { 'PRIVATE-TOKEN': secret },
  })
  await response.body?.cancel()
  return response.status
}

describe('createFakeGitLab over a store of the user’s: reset goes back to what it held at start', () => {
  it('without a seed, the store’s users and tokens (a minted secret too) come back, the later ones go', async () => {
    const store = memoryStore()
    const first = await createFakeGitLab({
      store,
      tokens: [{ id: 3, user_id: 1, name: 'kept', scopes: ['api'], token: KEPT }],
    })
    running.push(first)
    const minted = await first.authority.issueToken({ userId: 2, name: 'minted', scopes: ['api'] })
    await first.close()
    running.splice(0)

    const second = await createFakeGitLab({ store, users: [] })
    running.push(second)
    const before = await second.snapshot()
    expect(before.users.map((user) => user.username)).toEqual(['root', 'alice'])
    expect(before.tokens.map((token) => [token.name, 'token_digest' in token])).toEqual([
      ['kept', true],
      ['minted', true],
    ])
    await second.issueToken({ userId: 1, name: 'added', scopes: ['api'], secret: ADDED })
    await second.reset()
    expect(await second.snapshot()).toEqual(before)
    expect([
      await status(second, KEPT),
      await status(second, minted._unsafeUnwrap().secret),
      await status(second, ADDED),
    ]).toEqual([200, 200, 401])
  })

  it(`above ${START_SNAPSHOT_LIMIT} tokens at start, reset is refused with the reason and the data stays`, {
    timeout: 60_000,
  }, async () => {
    const store = memoryStore()
    const tokens = Array.from({ length: START_SNAPSHOT_LIMIT + 1 }, (_, i) => ({
      user_id: 1,
      name: `t${i}`,
      scopes: ['read_api' as const],
      token: `glpat-kept-bulk-${String(i).padStart(11, '0')}`,
    }))
    const first = await createFakeGitLab({ store, tokens })
    running.push(first)
    await first.close()
    running.splice(0)

    const second = await createFakeGitLab({ store, users: [] })
    running.push(second)
    await expect(second.reset()).rejects.toThrow(
      `the start held ${START_SNAPSHOT_LIMIT + 1} tokens, more than the ${START_SNAPSHOT_LIMIT} a reset keeps in memory`,
    )
    const response = await fetch(`${second.url}/__patkit/reset`, { method: 'POST' })
    expect(response.status).toBe(409)
    expect(((await response.json()) as { error: string }).error).toContain('PUT /__patkit/state')
    const list = await second.store.list({
      filter: {},
      sort: 'id_asc',
      page: { page: 1, perPage: 1 },
      now: second.clock.now(),
    })
    expect(list._unsafeUnwrap().total).toBe(START_SNAPSHOT_LIMIT + 1)
  })
})
