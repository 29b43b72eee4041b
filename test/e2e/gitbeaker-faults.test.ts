import { GitbeakerRequestError, Gitlab } from '@gitbeaker/rest'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createFakeGitLab, type FakeGitLab } from '../../src/fake/fake-gitlab.js'

// gitbeaker 43 (@gitbeaker/rest) against outages the fake's fault rules imitate. How gitbeaker retries,
// read from @gitbeaker/rest's defaultRequestHandler: a 429 or a 502 is retried up to 10 times after
// 2^i * 0.25 ms (Retry-After and RateLimit-Reset are not read); any other error status is thrown at
// once as a GitbeakerRequestError; it sends no Idempotency-Key. So a rotation whose answer a proxy
// lost (502 after the commit) is retried by gitbeaker itself with the old, now revoked, token: reuse.

const OLD = 'glpat-gitbeaker-faults-0001'
const SELF = '/api/v4/personal_access_tokens/self'
const ROTATE = `${SELF}/rotate`

let gitlab: FakeGitLab
let api: InstanceType<typeof Gitlab>
beforeAll(async () => {
  gitlab = await createFakeGitLab({
    tokens: [{ id: 2, user_id: 2, name: 'ci', scopes: ['api'], token: OLD, expires_at: '2026-06-01' }],
  })
  api = new Gitlab({ host: gitlab.url, token: OLD })
})
afterAll(() => gitlab.close())
beforeEach(() => gitlab.reset())

const statuses = (path: string) =>
  gitlab.journal
    .query({ kind: 'request', pathContains: path })
    .entries.map((entry) => (entry.kind === 'request' ? entry.status : null))

/** The status of the GitbeakerRequestError a call rejects with. */
async function failedStatus(promise: Promise<unknown>): Promise<number> {
  try {
    await promise
  } catch (error) {
    if (error instanceof GitbeakerRequestError) return error.cause?.response.status ?? 0
    throw error
  }
  throw new Error('the call succeeded; a failure was expected')
}

describe('gitbeaker retries what the fault rules imitate', () => {
  it('a 429 with Retry-After: 1, then normal answers: gitbeaker retries and gets the token', async () => {
    gitlab.faults
      .add({ path: SELF, times: 1, status: 429, headers: { 'Retry-After': '1', 'RateLimit-Remaining': '0' } })
      ._unsafeUnwrap()
    expect(await api.PersonalAccessTokens.show()).toMatchObject({ id: 2, name: 'ci' })
    expect(statuses(SELF)).toEqual([429, 200])
  })

  it('502, 502, then the normal answer (one sequence rule): gitbeaker retries twice and succeeds', async () => {
    gitlab.faults.add({ path: SELF, sequence: [{ status: 502 }, { status: 502 }, null] })._unsafeUnwrap()
    expect(await api.PersonalAccessTokens.show()).toMatchObject({ id: 2 })
    expect(statuses(SELF)).toEqual([502, 502, 200])
  })

  it('503, 503, then normal: gitbeaker does not retry a 503, the caller sees it', async () => {
    gitlab.faults.add({ path: SELF, sequence: [{ status: 503 }, { status: 503 }, null] })._unsafeUnwrap()
    expect(await failedStatus(api.PersonalAccessTokens.show())).toBe(503)
    expect(statuses(SELF)).toEqual([503])
  })

  it('a rotation answer lost to a 502: gitbeaker retries it without a key, which is reuse (family revoked)', async () => {
    gitlab.faults
      .add({ method: 'POST', path: ROTATE, times: 1, lostAnswer: true, status: 502 })
      ._unsafeUnwrap()
    expect(await failedStatus(api.PersonalAccessTokens.rotate('self'))).toBe(401)
    expect(statuses(ROTATE)).toEqual([502, 401])
    const [rotated] = gitlab.journal.query({ kind: 'event', type: 'rotated' }).entries
    const [reuse] = gitlab.journal.query({ kind: 'event', type: 'reuse_detected' }).entries
    const successor = rotated?.kind === 'event' ? (rotated.event['token'] as { id: number }).id : null
    const revoked =
      reuse?.kind === 'event' ? (reuse.event['revoked'] as { id: number }[]).map((t) => t.id) : []
    expect(revoked).toEqual([successor])
  })
})
