import { afterEach, describe, expect, it } from 'vitest'
import { seededRandom } from '../../src/domain/random.js'
import { CONTROL_OPENAPI } from '../../src/fake/control/control-routes.js'
import { createFakeGitLab, type FakeGitLab, type FakeGitLabOptions } from '../../src/fake/fake-gitlab.js'

// The control API over HTTP, as a test suite in another language drives it: every route, its errors,
// and its effect on GitLab's API next to it.

const ROOT = 'glpat-control-root-secret-01'
const ALICE = 'glpat-control-alice-secret-01'

const running: FakeGitLab[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((gitlab) => gitlab.close()))
})

async function start(options: FakeGitLabOptions = {}): Promise<FakeGitLab> {
  const gitlab = await createFakeGitLab({
    users: [
      { id: 1, username: 'root', admin: true },
      { id: 2, username: 'alice' },
    ],
    tokens: [
      { id: 1, user_id: 1, name: 'root', scopes: ['api'], token: ROOT, expires_at: '2027-01-01' },
      { id: 2, user_id: 2, name: 'ci', scopes: ['api'], token: ALICE, expires_at: '2026-01-10' },
    ],
    ...options,
  })
  running.push(gitlab)
  return gitlab
}

async function control(
  gitlab: FakeGitLab,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${gitlab.url}/__patkit${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  })
  const text = await response.text()
  return { status: response.status, body: text === '' ? null : (JSON.parse(text) as Record<string, unknown>) }
}

/** An array field of a control answer; fails the test when it is not one. */
function list<T>(value: unknown): T[] {
  if (!Array.isArray(value)) throw new Error(`expected an array, got ${JSON.stringify(value)}`)
  return value as T[]
}

const api = (gitlab: FakeGitLab, path: string, secret: string | null, init: RequestInit = {}) =>
  fetch(`${gitlab.apiUrl}${path}`, {
    ...init,
    headers: secret === null ? {} : { 'PRIVATE-TOKEN': secret },
  })

describe('the control API document', () => {
  it('GET /__patkit/openapi.json is an OpenAPI 3.1 document naming every control route', async () => {
    const gitlab = await start()
    const { status, body } = await control(gitlab, 'GET', '/openapi.json')
    expect(status).toBe(200)
    expect(body).toEqual(JSON.parse(JSON.stringify(CONTROL_OPENAPI)))
    expect(Object.keys(body?.['paths'] as object).sort()).toEqual(
      [
        '/__patkit/clock',
        '/__patkit/clock/advance',
        '/__patkit/clock/freeze',
        '/__patkit/clock/resume',
        '/__patkit/clock/set',
        '/__patkit/deliveries',
        '/__patkit/deliveries/wait',
        '/__patkit/faults',
        '/__patkit/faults/{id}',
        '/__patkit/groups',
        '/__patkit/journal',
        '/__patkit/journal/stream',
        '/__patkit/openapi.json',
        '/__patkit/projects',
        '/__patkit/reset',
        '/__patkit/state',
        '/__patkit/tokens',
        '/__patkit/tokens/{id}/family',
        '/__patkit/users',
      ].sort(),
    )
  })

  it('an unknown control route is 404 pointing at the document', async () => {
    const gitlab = await start()
    const { status, body } = await control(gitlab, 'GET', '/nothing')
    expect(status).toBe(404)
    expect(body).toEqual({ error: 'no control route GET /__patkit/nothing (see /__patkit/openapi.json)' })
  })
})

const AT_MESSAGE =
  'at must be an ISO 8601 instant with Z or an offset, on a real calendar day, e.g. 2026-01-10T00:00:00Z'

describe('clock', () => {
  it('reads, sets, advances, freezes and resumes; expiry follows it', async () => {
    const gitlab = await start()
    expect((await control(gitlab, 'GET', '/clock')).body).toEqual({
      now: '2026-01-01T00:00:00.000Z',
      frozen: true,
    })
    expect((await api(gitlab, '/personal_access_tokens/self', ALICE)).status).toBe(200)
    expect((await control(gitlab, 'POST', '/clock/advance', { days: 8, hours: 23 })).body).toEqual({
      now: '2026-01-09T23:00:00.000Z',
      frozen: true,
    })
    expect((await api(gitlab, '/personal_access_tokens/self', ALICE)).status).toBe(200)
    expect((await control(gitlab, 'POST', '/clock/set', { at: '2026-01-10T00:00:00Z' })).body).toEqual({
      now: '2026-01-10T00:00:00.000Z',
      frozen: true,
    })
    const expired = await api(gitlab, '/personal_access_tokens/self', ALICE)
    expect(expired.status).toBe(401)
    expect(await expired.json()).toMatchObject({ error: 'invalid_token' })
    const listed = await api(gitlab, '/personal_access_tokens?state=inactive', ROOT)
    expect(((await listed.json()) as { id: number }[]).map((t) => t.id)).toEqual([2])
    expect((await control(gitlab, 'POST', '/clock/advance', { ms: -1 })).body).toMatchObject({
      now: '2026-01-09T23:59:59.999Z',
    })
    expect((await control(gitlab, 'POST', '/clock/resume')).body).toMatchObject({ frozen: false })
    expect((await control(gitlab, 'POST', '/clock/freeze')).body).toMatchObject({ frozen: true })
  })

  it.each([
    ['/clock/set', { at: 'tomorrow' }, AT_MESSAGE],
    ['/clock/set', { at: '2026-01-10T00:00:00' }, AT_MESSAGE],
    ['/clock/advance', { weeks: 1 }, 'weeks is not a unit (ms, seconds, minutes, hours, days)'],
    ['/clock/advance', { days: '1' }, 'days must be a number'],
    ['/clock/advance', {}, 'give one or more of ms, seconds, minutes, hours, days'],
    ['/clock/advance', '{not json', 'the body must be JSON'],
    ['/clock/advance', { days: 1e10 }, 'the clock would leave the range of dates (about 275,000 years)'],
    ['/clock/set', { at: 'Jan 10 2026 00:00 (Z)' }, AT_MESSAGE],
    ['/clock/set', { at: '+275760-09-14T00:00:00Z' }, AT_MESSAGE],
  ])('POST %s %j is 400: %s', async (path, body, message) => {
    const gitlab = await start()
    expect(await control(gitlab, 'POST', path, body)).toEqual({ status: 400, body: { error: message } })
    expect((await control(gitlab, 'GET', '/clock')).body).toMatchObject({ now: '2026-01-01T00:00:00.000Z' })
  })
})

describe('state', () => {
  it('reset brings back the start data and the start clock, clears the journal and the faults', async () => {
    const gitlab = await start()
    const rotated = await api(gitlab, '/personal_access_tokens/self/rotate', ALICE, { method: 'POST' })
    expect(rotated.status).toBe(200)
    await control(gitlab, 'POST', '/faults', { path: '/api/v4/version', status: 503 })
    await control(gitlab, 'POST', '/clock/advance', { days: 1 })
    expect((await api(gitlab, '/personal_access_tokens/self', ALICE)).status).toBe(401)

    expect(await control(gitlab, 'POST', '/reset')).toEqual({
      status: 200,
      body: { users: 2, tokens: 2, groups: 0, projects: 0 },
    })
    const again = await api(gitlab, '/personal_access_tokens/self', ALICE)
    expect(again.status).toBe(200)
    expect(await again.json()).toMatchObject({ id: 2, active: true, revoked: false })
    expect((await control(gitlab, 'GET', '/faults')).body).toEqual([])
    const journal = await control(gitlab, 'GET', '/journal?kind=request')
    expect(journal.body?.['count']).toBe(1) // only the request just made
    expect((await control(gitlab, 'GET', '/clock')).body).toMatchObject({ now: '2026-01-01T00:00:00.000Z' })
  })

  it('a snapshot has known secrets as token and minted ones as token_digest, and restores exactly', async () => {
    const gitlab = await start()
    const rotated = (await (
      await api(gitlab, '/personal_access_tokens/self/rotate', ALICE, { method: 'POST' })
    ).json()) as { id: number; token: string }
    const snapshot = await control(gitlab, 'GET', '/state')
    expect(snapshot.status).toBe(200)
    const tokens = snapshot.body?.['tokens'] as Record<string, unknown>[]
    expect(tokens.map((t) => [t['id'], t['token'] ?? null, typeof t['token_digest'], t['revoked']])).toEqual([
      [1, ROOT, 'undefined', false],
      [2, ALICE, 'undefined', true],
      [rotated.id, null, 'string', false],
    ])
    expect(JSON.stringify(snapshot.body)).not.toContain(rotated.token)
    expect(snapshot.body?.['users']).toEqual([
      { id: 1, username: 'root', admin: true, blocked: false },
      { id: 2, username: 'alice', admin: false, blocked: false },
    ])

    await control(gitlab, 'POST', '/reset')
    expect((await api(gitlab, '/personal_access_tokens/self', rotated.token)).status).toBe(401)
    expect(await control(gitlab, 'PUT', '/state', snapshot.body)).toEqual({
      status: 200,
      body: { users: 2, tokens: 3, groups: 0, projects: 0 },
    })
    const restored = await api(gitlab, '/personal_access_tokens/self', rotated.token)
    expect(restored.status).toBe(200)
    expect(await restored.json()).toMatchObject({ id: rotated.id, user_id: 2, active: true })
    // The family survived: presenting the rotated-away secret is still reuse.
    expect((await api(gitlab, '/personal_access_tokens/self/rotate', ALICE, { method: 'POST' })).status).toBe(
      401,
    )
    expect((await api(gitlab, '/personal_access_tokens/self', rotated.token)).status).toBe(401)
  })

  it('a snapshot carries last_used_ips, and a restore puts them back', async () => {
    const gitlab = await start()
    expect((await api(gitlab, '/personal_access_tokens/self', ROOT)).status).toBe(200)
    const ipsOf = async () => {
      const tokens = (await control(gitlab, 'GET', '/state')).body?.['tokens'] as Record<string, unknown>[]
      return tokens.map((t) => t['last_used_ips'] ?? null)
    }
    const snapshot = await control(gitlab, 'GET', '/state')
    expect(await ipsOf()).toEqual([['127.0.0.1'], null])
    await control(gitlab, 'POST', '/reset')
    expect(await ipsOf()).toEqual([null, null])
    expect((await control(gitlab, 'PUT', '/state', snapshot.body)).status).toBe(200)
    expect(await ipsOf()).toEqual([['127.0.0.1'], null])
  })

  it('PUT /state with an invalid snapshot is 400 naming the field, and changes nothing', async () => {
    const gitlab = await start()
    const { status, body } = await control(gitlab, 'PUT', '/state', {
      tokens: [{ user_id: 2, name: 'x', scopes: ['api'] }],
    })
    expect(status).toBe(400)
    expect(body).toEqual({
      error: 'invalid state',
      problems: [{ path: 'tokens[0].token', message: 'Give exactly one of token and token_digest' }],
    })
    expect((await api(gitlab, '/personal_access_tokens/self', ALICE)).status).toBe(200)
  })

  it('adds users, and tokens with a known or a fresh secret', async () => {
    const gitlab = await start()
    expect(await control(gitlab, 'POST', '/users', [{ id: 3, username: 'bob' }])).toEqual({
      status: 201,
      body: [{ id: 3, username: 'bob' }],
    })
    const known = await control(gitlab, 'POST', '/tokens', {
      user_id: 3,
      name: 'bob-ci',
      scopes: ['read_api'],
      token: 'glpat-bob-known-secret-1',
    })
    expect(known).toEqual({ status: 201, body: { id: 3, user_id: 3, token: 'glpat-bob-known-secret-1' } })
    const fresh = await control(gitlab, 'POST', '/tokens', { user_id: 3, name: 'bob-cron', scopes: ['api'] })
    expect(fresh.status).toBe(201)
    expect(fresh.body).toMatchObject({
      id: 4,
      user_id: 3,
      token: expect.stringMatching(/^glpat-[A-Za-z0-9_-]{32,}\.01\.[0-9a-z]{9}$/),
    })
    const self = await api(gitlab, '/personal_access_tokens/self', String(fresh.body?.['token']))
    expect(await self.json()).toMatchObject({ id: 4, name: 'bob-cron', user_id: 3 })
    // Both secrets were given to the test, so a snapshot carries them.
    const tokens = (await control(gitlab, 'GET', '/state')).body?.['tokens'] as Record<string, unknown>[]
    expect(tokens.slice(2).map((t) => t['token'])).toEqual([
      'glpat-bob-known-secret-1',
      fresh.body?.['token'],
    ])
  })

  it.each([
    ['/users', { id: 0, username: 'xy' }, 'users[0].id'],
    [
      '/tokens',
      { user_id: 9, name: 'x', scopes: ['api'], token: 'glpat-unknown-user-1' },
      'tokens[0].user_id',
    ],
    ['/tokens', { user_id: 2, name: 'x', scopes: ['nope'] }, 'tokens[0].scopes[0]'],
  ])('POST %s %j is 400 naming %s', async (path, body, field) => {
    const gitlab = await start()
    const { status, body: answer } = await control(gitlab, 'POST', path, body)
    expect(status).toBe(400)
    expect(list<{ path: string }>(answer?.['problems']).map((p) => p.path)).toEqual([field])
  })
})

describe('repeatable randomness', () => {
  it('with a random factory, the secrets minted after a reset are the ones minted after the start', async () => {
    const gitlab = await start({ random: () => seededRandom(5) })
    const rotate = async () =>
      (
        (await (
          await api(gitlab, '/personal_access_tokens/self/rotate', ALICE, { method: 'POST' })
        ).json()) as {
          token: string
        }
      ).token
    const first = await rotate()
    await control(gitlab, 'POST', '/reset')
    expect(await rotate()).toBe(first)
  })
})

describe('journal', () => {
  it('records requests (no secret, private_token filtered) and events, filters, counts and clears', async () => {
    const gitlab = await start()
    await api(gitlab, '/personal_access_tokens/self', ALICE)
    await api(gitlab, `/personal_access_tokens?private_token=${ROOT}&per_page=1`, null)
    await api(gitlab, '/personal_access_tokens/self/rotate', ALICE, { method: 'POST' })
    await api(gitlab, '/personal_access_tokens/self/rotate', ALICE, { method: 'POST' }) // reuse
    await api(gitlab, '/personal_access_tokens/self', 'glpat-nobody-0000000')

    const all = await control(gitlab, 'GET', '/journal')
    expect(JSON.stringify(all.body)).not.toContain(ALICE)
    expect(JSON.stringify(all.body)).not.toContain(ROOT)
    const requests = await control(gitlab, 'GET', '/journal?kind=request')
    expect(
      list<Record<string, unknown>>(requests.body?.['entries']).map((e) => [
        e['method'],
        e['path'],
        e['status'],
        e['tokenId'],
        e['userId'],
      ]),
    ).toEqual([
      ['GET', '/api/v4/personal_access_tokens/self', 200, 2, 2],
      ['GET', '/api/v4/personal_access_tokens?private_token=[FILTERED]&per_page=1', 200, 1, 1],
      ['POST', '/api/v4/personal_access_tokens/self/rotate', 200, 2, 2],
      ['POST', '/api/v4/personal_access_tokens/self/rotate', 401, 2, 2],
      ['GET', '/api/v4/personal_access_tokens/self', 401, null, null],
    ])
    expect((await control(gitlab, 'GET', '/journal?method=post&status=401')).body?.['count']).toBe(1)
    const reuse = await control(gitlab, 'GET', '/journal?type=reuse_detected')
    expect(reuse.body?.['count']).toBe(1)
    const [event] = list<Record<string, unknown>>(reuse.body?.['entries'])
    expect(event).toMatchObject({
      kind: 'event',
      type: 'reuse_detected',
      event: { presented: { id: 2 }, revoked: [{ id: 3 }] },
    })
    expect((await control(gitlab, 'GET', '/journal?token_id=3&kind=event')).body?.['count']).toBe(2) // rotated, reuse
    const last = await control(gitlab, 'GET', '/journal?limit=1')
    const seq = list<{ seq: number }>(last.body?.['entries'])[0]?.seq ?? 0
    await api(gitlab, '/personal_access_tokens/self', ROOT)
    expect((await control(gitlab, 'GET', `/journal?after=${seq}&kind=request`)).body?.['count']).toBe(1)
    expect(await control(gitlab, 'GET', '/journal?status=abc')).toEqual({
      status: 400,
      body: { error: 'status must be an integer: 0 (a dropped connection) or 100 to 599' },
    })
    expect(await control(gitlab, 'GET', '/journal?kind=other')).toEqual({
      status: 400,
      body: { error: 'kind must be request or event' },
    })
    expect((await control(gitlab, 'DELETE', '/journal')).status).toBe(204)
    expect((await control(gitlab, 'GET', '/journal')).body).toEqual({ count: 0, dropped: 0, entries: [] })
    expect(gitlab.journal.query().count).toBe(0)
  })
})

describe('faults', () => {
  it('answers a status for the next N matches, then the authority again', async () => {
    const gitlab = await start()
    const added = await control(gitlab, 'POST', '/faults', {
      method: 'POST',
      path: '/api/v4/personal_access_tokens/self/rotate',
      times: 1,
      status: 500,
    })
    expect(added).toEqual({
      status: 201,
      body: {
        method: 'POST',
        path: '/api/v4/personal_access_tokens/self/rotate',
        times: 1,
        status: 500,
        id: 'fault-1',
        hits: 0,
        remaining: 1,
      },
    })
    const failed = await api(gitlab, '/personal_access_tokens/self/rotate', ALICE, { method: 'POST' })
    expect(failed.status).toBe(500)
    expect(await failed.json()).toEqual({ message: '500 Internal Server Error' })
    // The fault answered: the token was not rotated.
    expect((await api(gitlab, '/personal_access_tokens/self', ALICE)).status).toBe(200)
    expect((await api(gitlab, '/personal_access_tokens/self/rotate', ALICE, { method: 'POST' })).status).toBe(
      200,
    )
    expect((await control(gitlab, 'GET', '/faults')).body).toMatchObject([
      { id: 'fault-1', hits: 1, remaining: 0 },
    ])
    expect((await control(gitlab, 'GET', '/journal?status=500')).body).toMatchObject({
      entries: [{ fault: 'fault-1' }],
    })
  })

  it('matches a token, a path prefix, adds latency, drops the connection, and is removed', async () => {
    const gitlab = await start()
    await control(gitlab, 'POST', '/faults', {
      path: '/api/v4/personal_access_tokens*',
      tokenId: 1,
      status: 503,
      body: { message: 'down' },
    })
    const root = await api(gitlab, '/personal_access_tokens/self', ROOT)
    expect([root.status, await root.json()]).toEqual([503, { message: 'down' }])
    expect((await api(gitlab, '/personal_access_tokens/self', ALICE)).status).toBe(200)
    expect((await control(gitlab, 'DELETE', '/faults/fault-1')).status).toBe(204)
    expect((await control(gitlab, 'DELETE', '/faults/fault-1')).status).toBe(404)

    await control(gitlab, 'POST', '/faults', {
      path: '/api/v4/personal_access_tokens/self',
      delayMs: 50,
      times: 1,
    })
    expect((await api(gitlab, '/personal_access_tokens/self', ALICE)).status).toBe(200)
    expect((await control(gitlab, 'GET', '/journal?kind=request&limit=1')).body).toMatchObject({
      entries: [{ status: 200, fault: 'fault-2' }],
    })

    await control(gitlab, 'POST', '/faults', {
      path: '/api/v4/personal_access_tokens/self',
      drop: true,
      times: 1,
    })
    await expect(api(gitlab, '/personal_access_tokens/self', ALICE)).rejects.toThrow()
    expect((await control(gitlab, 'GET', '/journal?kind=request&limit=1')).body).toMatchObject({
      entries: [{ status: 0, fault: 'fault-3' }],
    })
    expect((await api(gitlab, '/personal_access_tokens/self', ALICE)).status).toBe(200)
    expect((await control(gitlab, 'DELETE', '/faults')).status).toBe(204)
    expect((await control(gitlab, 'GET', '/faults')).body).toEqual([])
  })

  it('acts with a probability drawn from the injected random source: the same seed, the same outcomes', async () => {
    const outcomes = async () => {
      const gitlab = await start({ random: seededRandom(99) })
      await control(gitlab, 'POST', '/faults', {
        path: '/api/v4/personal_access_tokens/self',
        probability: 0.5,
        status: 502,
      })
      const statuses: number[] = []
      for (let i = 0; i < 40; i++)
        statuses.push((await api(gitlab, '/personal_access_tokens/self', ALICE)).status)
      return statuses
    }
    const first = await outcomes()
    expect(first.filter((s) => s === 502).length).toBeGreaterThan(5)
    expect(first.filter((s) => s === 200).length).toBeGreaterThan(5)
    expect(await outcomes()).toEqual(first)
  })

  it.each([
    [
      { status: 99 },
      'status must be an integer from 200 to 599: a client takes a 1xx for an interim answer and waits for the final one',
    ],
    [{ path: 'api', status: 500 }, 'path must start with /'],
    [{ drop: true, status: 500 }, 'drop and status exclude each other'],
    [{ times: 0, status: 500 }, 'times must be an integer from 1'],
    [{ probability: 0, status: 500 }, 'probability must be in (0, 1]'],
    [{ method: 'GET' }, 'a fault rule needs status, drop, delayMs or sequence'],
    [{ status: 500, colour: 'red' }, 'colour is not a fault rule field'],
    [[], 'a fault rule must be a JSON object'],
  ])('rejects %j: %s', async (rule, message) => {
    const gitlab = await start()
    expect(await control(gitlab, 'POST', '/faults', rule)).toEqual({ status: 400, body: { error: message } })
  })
})

describe('control token', () => {
  it('with controlToken, every control route needs X-Patkit-Control-Token; GitLab routes do not change', async () => {
    const gitlab = await start({ controlToken: 'let-me-in' })
    const refused = await control(gitlab, 'GET', '/clock')
    expect(refused).toEqual({
      status: 401,
      body: { error: 'the control API needs the X-Patkit-Control-Token header with the control token' },
    })
    expect(
      (await control(gitlab, 'GET', '/clock', undefined, { 'x-patkit-control-token': 'wrong' })).status,
    ).toBe(401)
    expect(
      (await control(gitlab, 'GET', '/clock', undefined, { 'x-patkit-control-token': 'let-me-in' })).status,
    ).toBe(200)
    expect((await api(gitlab, '/personal_access_tokens/self', ALICE)).status).toBe(200)
  })
})

describe('the embeddable handler', () => {
  it('createHandler serves no control API', async () => {
    const { createHandler } = await import('../../src/http/create-handler.js')
    const gitlab = await start()
    const response = await createHandler(gitlab.authority)(new Request('http://x/__patkit/clock'))
    expect(response.status).toBe(404)
  })
})

describe('the control plane in an embedder’s own server (patkit/fake)', () => {
  it('fakeAuthority gives the GitLab handler and the control handler to mount anywhere', async () => {
    const { fakeAuthority, controllableClock } = await import('../../src/fake/index.js')
    const { memoryStore } = await import('../../src/memory/memory-store.js')
    const fake = await fakeAuthority({
      store: memoryStore(),
      freshStore: () => memoryStore(),
      pepper: 'an-embedders-pepper',
      clock: controllableClock({ now: () => new Date('2026-05-01T00:00:00.000Z') }),
      random: () => seededRandom(3),
      seed: {
        users: [{ id: 2, username: 'alice' }],
        tokens: [{ user_id: 2, name: 'ci', scopes: ['api'], token: ALICE }],
      },
      allowedHosts: ['app'],
    })
    if (fake.isErr()) throw new Error(JSON.stringify(fake.error))
    const { control, handler } = fake.value
    const advance = (url: string) =>
      control(
        new Request(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"days":1}',
        }),
      )
    const advanced = await advance('http://app/__patkit/clock/advance')
    expect(await advanced.json()).toEqual({ now: '2026-05-02T00:00:00.000Z', frozen: false })
    // The same guard as on a socket: a host neither loopback nor allowed is refused.
    expect((await advance('http://other.example/__patkit/clock/advance')).status).toBe(403)
    // A streamed body says neither its length nor its type: refused once read, before it is used.
    const untyped = await control(
      new Request('http://127.0.0.1/__patkit/clock/advance', {
        method: 'POST',
        body: new Blob(['{"days":1}']).stream(),
        duplex: 'half',
      } as RequestInit),
    )
    expect(untyped.status).toBe(415)
    expect(fake.value.clock.now().toISOString()).toBe('2026-05-02T00:00:00.000Z')
    const self = await handler(
      new Request('http://app/api/v4/personal_access_tokens/self', { headers: { 'PRIVATE-TOKEN': ALICE } }),
    )
    expect(await self.json()).toMatchObject({ name: 'ci', last_used_at: '2026-05-02T00:00:00.000Z' })
  })
})
