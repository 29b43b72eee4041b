import { afterEach, describe, expect, it } from 'vitest'
import { ALICE, closeAll, controlGet, startDashboardFake } from './support/dashboard-fake.js'

// GET /__patkit/tokens/:id/family: the rotation chain oldest first, each token's state, and the reuse
// detections the journal recorded.

afterEach(closeAll)

const rotate = async (apiUrl: string, secret: string) => {
  const response = await fetch(`${apiUrl}/personal_access_tokens/self/rotate`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': secret },
  })
  return { status: response.status, body: (await response.json()) as { id: number; token: string } }
}

interface Family {
  family_id: number
  tokens: { id: number; previous_id: number | null; state: string }[]
  reuse: { at: string; presented_id: number; revoked_ids: number[] }[]
}

describe('GET /__patkit/tokens/:id/family', () => {
  it('walks back and forward from any member; reuse revokes the newest, with the presented id', async () => {
    const gitlab = await startDashboardFake()
    const second = await rotate(gitlab.apiUrl, ALICE)
    const third = await rotate(gitlab.apiUrl, second.body.token)
    const chain = [1, second.body.id, third.body.id]
    for (const id of chain) {
      const { status, body } = await controlGet(gitlab, `/tokens/${id}/family`)
      expect(status).toBe(200)
      const family = body as Family
      expect(family.family_id).toBe(1)
      expect(family.tokens.map((t) => [t.id, t.previous_id, t.state])).toEqual([
        [1, null, 'revoked'],
        [second.body.id, 1, 'revoked'],
        [third.body.id, second.body.id, 'active'],
      ])
      expect(family.reuse).toEqual([])
    }
    // The first secret presented again: reuse detected, the active token revoked by it.
    const reused = await rotate(gitlab.apiUrl, ALICE)
    expect(reused.status).toBeGreaterThanOrEqual(400)
    const family = (await controlGet(gitlab, `/tokens/${second.body.id}/family`)).body as Family
    expect(family.tokens.map((t) => t.state)).toEqual(['revoked', 'revoked', 'reuse_revoked'])
    expect(family.reuse).toEqual([
      { at: gitlab.authority.now().toISOString(), presented_id: 1, revoked_ids: [third.body.id] },
    ])
    expect(family.tokens[0]).toEqual({
      id: 1,
      name: 'ci',
      user_id: 2,
      previous_id: null,
      state: 'revoked',
      created_at: expect.any(String),
      expires_at: '2027-01-01',
      last_used_at: '2026-01-01T00:00:00.000Z', // a rotation is a use
    })
  })

  it('reports an expired token as expired, a token never rotated as a family of one', async () => {
    const gitlab = await startDashboardFake()
    const { body } = await controlGet(gitlab, '/tokens/41/family')
    expect(body).toEqual({
      family_id: 41,
      tokens: [expect.objectContaining({ id: 41, state: 'active' })],
      reuse: [],
    })
    gitlab.clock.set(new Date('2027-06-01T00:00:00Z'))
    const later = (await controlGet(gitlab, '/tokens/41/family')).body as Family
    expect(later.tokens.map((t) => t.state)).toEqual(['expired'])
  })

  it('answers 404 for an unknown or malformed id', async () => {
    const gitlab = await startDashboardFake()
    for (const id of ['999', 'abc', '0']) {
      const { status, body } = await controlGet(gitlab, `/tokens/${id}/family`)
      expect([id, status, body]).toEqual([id, 404, { message: '404 Token Not Found' }])
    }
  })
})
