import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { createFakeGitLab, type FakeGitLab } from '../../src/fake/fake-gitlab.js'

// Issue 23, part F: faults as outages happen. A 429 carries Retry-After and RateLimit-* headers; a
// lost answer lets the authority serve the request (a rotation commits) and then drops the connection
// or answers 502 instead; a sequence of answers (503, 503, then the normal one) is one rule.

const OLD = 'glpat-outages-alice-secret-01'
const SELF = '/api/v4/personal_access_tokens/self'
const ROTATE = `${SELF}/rotate`

const running: FakeGitLab[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((gitlab) => gitlab.close()))
})

async function start(): Promise<FakeGitLab> {
  const gitlab = await createFakeGitLab({
    tokens: [{ id: 2, user_id: 2, name: 'ci', scopes: ['api'], token: OLD, expires_at: '2026-06-01' }],
  })
  running.push(gitlab)
  return gitlab
}

async function addRule(gitlab: FakeGitLab, rule: unknown) {
  const response = await fetch(`${gitlab.url}/__patkit/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(rule),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

const self = (gitlab: FakeGitLab, secret: string) =>
  fetch(`${gitlab.url}${SELF}`, { headers: { 'PRIVATE-TOKEN': secret } })

const rotate = (gitlab: FakeGitLab, key: string | null) =>
  fetch(`${gitlab.url}${ROTATE}`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': OLD, ...(key === null ? {} : { 'Idempotency-Key': key }) },
  })

const requestStatuses = (gitlab: FakeGitLab, path: string) =>
  gitlab.journal
    .query({ kind: 'request', pathContains: path })
    .entries.map((entry) => (entry.kind === 'request' ? entry.status : null))

const eventCount = (gitlab: FakeGitLab, type: string) => gitlab.journal.query({ kind: 'event', type }).count

/** The id of the successor the committed rotation stored (from the journal's `rotated` event). */
function rotatedId(gitlab: FakeGitLab): number | null {
  const [entry] = gitlab.journal.query({ kind: 'event', type: 'rotated' }).entries
  if (entry?.kind !== 'event') return null
  return (entry.event['token'] as { id: number }).id
}

describe('response headers of a fault', () => {
  it('a 429 carries Retry-After and the RateLimit-* headers as given, then the rule is spent', async () => {
    const gitlab = await start()
    const headers = {
      'Retry-After': '1',
      'RateLimit-Limit': '600',
      'RateLimit-Observed': '601',
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': '1767225601',
      'RateLimit-ResetTime': 'Thu, 01 Jan 2026 00:00:01 GMT',
    }
    expect((await addRule(gitlab, { path: SELF, times: 1, status: 429, headers })).status).toBe(201)
    const limited = await self(gitlab, OLD)
    expect({
      status: limited.status,
      body: await limited.json(),
      type: limited.headers.get('content-type'),
      ...Object.fromEntries(Object.keys(headers).map((name) => [name, limited.headers.get(name)])),
    }).toEqual({
      status: 429,
      body: { message: '429 Too Many Requests' },
      type: 'application/json',
      ...headers,
    })
    expect((await self(gitlab, OLD)).status).toBe(200)
    expect(requestStatuses(gitlab, SELF)).toEqual([429, 200])
  })
})

describe('a sequence of answers as one rule', () => {
  it('503, 503, then the normal answer: one rotation, and the rule is spent', async () => {
    const gitlab = await start()
    const added = await addRule(gitlab, {
      method: 'POST',
      path: ROTATE,
      sequence: [{ status: 503 }, { status: 503, headers: { 'Retry-After': '0' } }, null],
    })
    expect(added).toMatchObject({ status: 201, body: { id: 'fault-1', hits: 0, remaining: 3 } })
    const first = await rotate(gitlab, null)
    expect([first.status, await first.json()]).toEqual([503, { message: '503 Service Unavailable' }])
    const second = await rotate(gitlab, null)
    expect([second.status, second.headers.get('retry-after')]).toEqual([503, '0'])
    const third = await rotate(gitlab, null)
    expect(third.status).toBe(200)
    const { token } = (await third.json()) as { token: string }
    expect(gitlab.faults.list()).toMatchObject([{ id: 'fault-1', hits: 3, remaining: 0 }])
    // Spent: the successor rotates normally, and only the third request changed anything.
    expect((await self(gitlab, token)).status).toBe(200)
    expect(requestStatuses(gitlab, ROTATE)).toEqual([503, 503, 200])
    expect(
      gitlab.journal
        .query({ kind: 'request', pathContains: ROTATE })
        .entries.map((e) => e.kind === 'request' && e.fault),
    ).toEqual(['fault-1', 'fault-1', 'fault-1'])
    expect(eventCount(gitlab, 'rotated')).toBe(1)
  })

  it('a step may delay, drop or lose the answer; other rules act once the sequence is spent', async () => {
    const gitlab = await start()
    await addRule(gitlab, { path: SELF, sequence: [{ delayMs: 0 }, { drop: true }] })
    await addRule(gitlab, { path: SELF, times: 1, status: 418 })
    expect((await self(gitlab, OLD)).status).toBe(200)
    await expect(self(gitlab, OLD)).rejects.toThrow()
    expect((await self(gitlab, OLD)).status).toBe(418)
    expect((await self(gitlab, OLD)).status).toBe(200)
    expect(requestStatuses(gitlab, SELF)).toEqual([200, 0, 418, 200])
  })

  it('property: the answers are the steps in order, then the normal one', async () => {
    const gitlab = await start()
    const step = fc.oneof(
      fc.constant(null),
      fc.constantFrom(500, 502, 503, 429).map((status) => ({ status })),
    )
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 5 }), async (sequence) => {
        gitlab.faults.clear()
        expect(gitlab.faults.add({ path: SELF, sequence }).isOk()).toBe(true)
        const seen: number[] = []
        for (let i = 0; i <= sequence.length; i++) seen.push((await self(gitlab, OLD)).status)
        expect(seen).toEqual([...sequence.map((s) => s?.status ?? 200), 200])
      }),
      { numRuns: 25 },
    )
  })

  it.each([
    [{ sequence: [] }, 'sequence must be a list of 1 to 100 steps, each an action or null'],
    [
      { sequence: Array(101).fill(null) },
      'sequence must be a list of 1 to 100 steps, each an action or null',
    ],
    [{ sequence: { status: 503 } }, 'sequence must be a list of 1 to 100 steps, each an action or null'],
    [
      { sequence: [null, 503] },
      'sequence[1]: a step must be an object (an action) or null (the normal answer)',
    ],
    [
      { sequence: [null, [503]] },
      'sequence[1]: a step must be an object (an action) or null (the normal answer)',
    ],
    [{ sequence: [{ status: 503, times: 1 }] }, 'sequence[0]: times is not a field of a step'],
    [{ sequence: [{ pass: true }] }, 'sequence[0]: pass is not a field of a step'],
    [
      { sequence: [{ status: 503 }, {}] },
      'sequence[1]: a step needs status, drop or delayMs (null lets the request through unchanged)',
    ],
    [
      { sequence: [{ status: 99 }] },
      'sequence[0]: status must be an integer from 200 to 599: a client takes a 1xx for an interim answer and waits for the final one',
    ],
    [{ sequence: [{ drop: true, status: 503 }] }, 'sequence[0]: drop and status exclude each other'],
    [{ sequence: [{ body: {} }] }, 'sequence[0]: body needs status'],
    [
      { sequence: [{ status: 429, headers: { 'Content-Length': '1' } }] },
      'sequence[0]: headers: Content-Length is refused: the server frames the answer itself',
    ],
    [
      { status: 503, sequence: [null] },
      'sequence and status exclude each other: each step of a sequence says what it does',
    ],
    [
      { sequence: [null], drop: true },
      'sequence and drop exclude each other: each step of a sequence says what it does',
    ],
    [
      { sequence: [null], times: 2 },
      'sequence and times exclude each other: a sequence is spent after its last step',
    ],
  ])('rejects %j: %s', async (rule, error) => {
    const gitlab = await start()
    expect(await addRule(gitlab, rule)).toEqual({ status: 400, body: { error } })
    expect(gitlab.faults.list()).toEqual([])
  })
})

describe('a lost answer: the request is served, the answer does not arrive', () => {
  it.each([
    [{ lostAnswer: 'drop' }, 'lostAnswer must be true or false'],
    [
      { lostAnswer: true },
      'lostAnswer needs status or drop: what the client gets instead of the real answer',
    ],
    [
      { lostAnswer: true, delayMs: 10 },
      'lostAnswer needs status or drop: what the client gets instead of the real answer',
    ],
    [{ lostAnswer: true, drop: true, status: 502 }, 'drop and status exclude each other'],
  ])('rejects %j: %s', async (rule, error) => {
    const gitlab = await start()
    expect(await addRule(gitlab, rule)).toEqual({ status: 400, body: { error } })
  })

  it.each([
    ['a 502', { status: 502 } as const, 502],
    ['a dropped connection', { drop: true } as const, 0],
  ])(
    'after %s, a retry with the same Idempotency-Key gets the successor the lost answer carried',
    async (_, lost, seen) => {
      const gitlab = await start()
      await addRule(gitlab, { method: 'POST', path: ROTATE, times: 1, lostAnswer: true, ...lost })
      const key = 'rotate-4f0c2a9e'
      if (seen === 502) {
        const answer = await rotate(gitlab, key)
        expect([answer.status, await answer.json()]).toEqual([502, { message: '502 Bad Gateway' }])
      } else {
        await expect(rotate(gitlab, key)).rejects.toThrow()
      }
      // The rotation committed behind the lost answer: the old token is revoked already.
      const successor = rotatedId(gitlab)
      expect(successor).toBe(3)
      expect((await self(gitlab, OLD)).status).toBe(401)

      const retry = await rotate(gitlab, key)
      const body = (await retry.json()) as { id: number; token: string }
      expect([retry.status, retry.headers.get('idempotent-replayed'), body.id]).toEqual([
        200,
        'true',
        successor,
      ])
      expect((await self(gitlab, body.token)).status).toBe(200)
      expect({
        rotated: eventCount(gitlab, 'rotated'),
        replayed: eventCount(gitlab, 'rotation_replayed'),
        reuse: eventCount(gitlab, 'reuse_detected'),
      }).toEqual({ rotated: 1, replayed: 1, reuse: 0 })
      expect(requestStatuses(gitlab, ROTATE)).toEqual([seen, 200])
    },
  )

  it('a sequence step may lose the answer: the rotation commits once, the keyed retry replays it', async () => {
    const gitlab = await start()
    await addRule(gitlab, {
      method: 'POST',
      path: ROTATE,
      sequence: [{ lostAnswer: true, status: 502 }, null],
    })
    expect((await rotate(gitlab, 'seq-key-1')).status).toBe(502)
    const retry = await rotate(gitlab, 'seq-key-1')
    expect([retry.status, ((await retry.json()) as { id: number }).id]).toEqual([200, rotatedId(gitlab)])
    expect(gitlab.faults.list()).toMatchObject([{ hits: 2, remaining: 0 }])
    expect(eventCount(gitlab, 'rotated')).toBe(1)
  })

  it('without the key, the retry presents a revoked token of the family: reuse, the successor is revoked too', async () => {
    const gitlab = await start()
    await addRule(gitlab, { method: 'POST', path: ROTATE, times: 1, lostAnswer: true, status: 502 })
    expect((await rotate(gitlab, null)).status).toBe(502)
    const successor = rotatedId(gitlab)
    const retry = await rotate(gitlab, null)
    expect(retry.status).toBe(401)
    const [reuse] = gitlab.journal.query({ kind: 'event', type: 'reuse_detected' }).entries
    const revoked =
      reuse?.kind === 'event' ? (reuse.event['revoked'] as { id: number }[]).map((t) => t.id) : []
    expect(revoked).toEqual([successor])
    expect(requestStatuses(gitlab, ROTATE)).toEqual([502, 401])
  })

  it('a lost answer keeps none of the real headers: the 502 is the fault’s own', async () => {
    const gitlab = await start()
    await addRule(gitlab, {
      path: SELF,
      times: 1,
      lostAnswer: true,
      status: 502,
      headers: { 'X-Proxy': 'lb-1' },
    })
    const answer = await self(gitlab, OLD)
    expect({
      status: answer.status,
      proxy: answer.headers.get('x-proxy'),
      type: answer.headers.get('content-type'),
      length: answer.headers.get('content-length'),
      body: await answer.text(),
    }).toEqual({
      status: 502,
      proxy: 'lb-1',
      type: 'application/json',
      length: null,
      body: '{"message":"502 Bad Gateway"}',
    })
    // The request was served: the token was used (the journal's `used` event).
    expect(eventCount(gitlab, 'used')).toBe(1)
  })
})
