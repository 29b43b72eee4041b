import { describe, expect, it } from 'vitest'
import { seededRandom } from '../../src/domain/random.js'
import { controllableClock } from '../../src/fake/controllable-clock.js'
import { fakeAuthority } from '../../src/fake/fake-authority.js'
import { memoryStore } from '../../src/memory/memory-store.js'

// What the control API refuses, and in which words: days that do not exist, fields no route has,
// keys of Object.prototype taken for units, a restore without a body, journal parameters out of range.

const START = new Date('2026-01-01T00:00:00.000Z')
const ALICE = 'glpat-input-alice-secret-01'

async function fake() {
  const built = await fakeAuthority({
    store: memoryStore(),
    freshStore: () => memoryStore(),
    pepper: 'a-test-pepper-for-control-input',
    clock: controllableClock({ now: () => START }, { frozen: true }),
    random: () => seededRandom(1),
    seed: {
      users: [
        { id: 1, username: 'root', admin: true },
        { id: 2, username: 'alice' },
      ],
      tokens: [{ id: 1, user_id: 2, name: 'ci', scopes: ['api'], token: ALICE }],
    },
  })
  if (built.isErr()) throw new Error(JSON.stringify(built.error))
  const { control } = built.value
  const call = async (method: string, path: string, body?: string | object) => {
    const response = await control(
      new Request(`http://127.0.0.1/__patkit${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      }),
    )
    const text = await response.text()
    return { status: response.status, body: text === '' ? null : (JSON.parse(text) as unknown) }
  }
  return { ...built.value, call }
}

const AT_MESSAGE =
  'at must be an ISO 8601 instant with Z or an offset, on a real calendar day, e.g. 2026-01-10T00:00:00Z'

describe('POST /clock/set', () => {
  it.each([
    '2026-02-30T00:00:00Z',
    '2026-02-29T00:00:00Z', // 2026 is no leap year
    '2026-04-31T12:00:00+02:00',
    '2026-13-01T00:00:00Z',
    '2026-00-10T00:00:00Z',
    '2026-01-10T24:00:00Z',
    '2026-01-10T23:60:00Z',
    '2026-01-10T23:59:60Z',
    '2026-01-10T00:00:00+24:00',
  ])('refuses %s, an instant that does not exist, and leaves the clock', async (at) => {
    const { call, clock } = await fake()
    expect(await call('POST', '/clock/set', { at })).toEqual({ status: 400, body: { error: AT_MESSAGE } })
    expect(clock.now()).toEqual(START)
  })

  it('takes a leap day and an offset', async () => {
    const { call } = await fake()
    expect((await call('POST', '/clock/set', { at: '2028-02-29T23:30:00-01:00' })).body).toEqual({
      now: '2028-03-01T00:30:00.000Z',
      frozen: true,
    })
  })

  it('refuses a field other than at, in the words other routes use', async () => {
    const { call, clock } = await fake()
    expect(await call('POST', '/clock/set', { at: '2026-01-10T00:00:00Z', frozen: false })).toEqual({
      status: 400,
      body: { error: 'frozen is not a clock/set field (at)' },
    })
    expect(clock.now()).toEqual(START)
  })

  it.each([
    [undefined, 'no body'],
    ['[]', 'an array'],
    ['"2026-01-10T00:00:00Z"', 'a string'],
  ])('refuses %j (%s): the body must be an object', async (body, _what) => {
    const { call } = await fake()
    expect(await call('POST', '/clock/set', body)).toEqual({
      status: 400,
      body: { error: 'the body must be a JSON object: {"at": "2026-01-10T00:00:00Z"}' },
    })
  })
})

describe('POST /clock/advance', () => {
  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'])(
    '%s is no unit',
    async (key) => {
      const { call, clock } = await fake()
      expect(await call('POST', '/clock/advance', `{"${key}": 1}`)).toEqual({
        status: 400,
        body: { error: `${key} is not a unit (ms, seconds, minutes, hours, days)` },
      })
      expect(clock.now()).toEqual(START)
    },
  )

  it('an absent body is refused with an example', async () => {
    const { call } = await fake()
    expect(await call('POST', '/clock/advance')).toEqual({
      status: 400,
      body: { error: 'the body must be a JSON object: the duration, e.g. {"days": 7}' },
    })
  })
})

describe('PUT /state', () => {
  const REQUIRED =
    'the body must be a JSON object: the state to restore, {"users": [...], "tokens": [...]} (send {} to empty it)'

  it.each([
    [undefined, 'no body'],
    ['  \n', 'white space'],
    ['null', 'null'],
    ['[]', 'an array'],
  ])('%j (%s) is 400 and wipes nothing', async (body, _what) => {
    const { call } = await fake()
    expect(await call('PUT', '/state', body)).toEqual({ status: 400, body: { error: REQUIRED } })
    expect((await call('GET', '/state')).body).toMatchObject({
      users: [{ id: 1 }, { id: 2 }],
      tokens: [{ id: 1 }],
    })
  })

  it('{} empties the data', async () => {
    const { call } = await fake()
    expect(await call('PUT', '/state', {})).toEqual({
      status: 200,
      body: { users: 0, tokens: 0, groups: 0, projects: 0 },
    })
    expect((await call('GET', '/state')).body).toEqual({ users: [], tokens: [], groups: [], projects: [] })
  })
})

describe('POST /users and POST /tokens', () => {
  it.each([[undefined], ['"bob"'], ['null'], ['3']])('POST /users %j is 400', async (body) => {
    const { call } = await fake()
    expect(await call('POST', '/users', body)).toEqual({
      status: 400,
      body: { error: 'the body must be a JSON object or array: a user or users in the seed format' },
    })
  })

  it('POST /tokens without a body is 400', async () => {
    const { call } = await fake()
    expect(await call('POST', '/tokens')).toEqual({
      status: 400,
      body: { error: 'the body must be a JSON object: a token in the seed format' },
    })
  })

  it('POST /faults without a body is 400', async () => {
    const { call } = await fake()
    expect(await call('POST', '/faults')).toEqual({
      status: 400,
      body: { error: 'a fault rule must be a JSON object' },
    })
  })
})

describe('GET /journal', () => {
  it.each([
    ['limit=-1', 'limit must be an integer from 1 to 10000'],
    ['limit=0', 'limit must be an integer from 1 to 10000'],
    ['limit=10001', 'limit must be an integer from 1 to 10000'],
    ['limit=1.5', 'limit must be an integer from 1 to 10000'],
    [
      'type=nonsense',
      'type must be one of created, rotated, revoked, reuse_detected, used, rotation_replayed, token_expiring, last_used_write_failed, webhook_delivery',
    ],
    ['kind=other', 'kind must be request or event'],
    ['status=50', 'status must be an integer: 0 (a dropped connection) or 100 to 599'],
    ['status=600', 'status must be an integer: 0 (a dropped connection) or 100 to 599'],
    ['token_id=0', 'token_id must be a positive integer'],
    ['user_id=-2', 'user_id must be a positive integer'],
    ['user_id=99999999999999999', 'user_id must be a positive integer'],
    ['after=-1', 'after must be an integer from 0'],
    ['method=GE%20T', 'method must be an HTTP method name'],
    [
      'types=used',
      'types is not a journal parameter (kind, method, path, type, status, token_id, user_id, after, limit)',
    ],
    ['status=200&status=401', 'status is given more than once'],
  ])('?%s is 400: %s', async (query, message) => {
    const { call } = await fake()
    expect(await call('GET', `/journal?${query}`)).toEqual({ status: 400, body: { error: message } })
  })

  it('takes each parameter in range, and an empty value as no filter', async () => {
    const { call, handler } = await fake()
    await handler(
      new Request('http://127.0.0.1/api/v4/personal_access_tokens/self', {
        headers: { 'PRIVATE-TOKEN': ALICE },
      }),
    )
    const query = 'kind=event&type=used&token_id=1&user_id=2&after=0&limit=10000&method=&path=&status='
    expect(await call('GET', `/journal?${query}`)).toMatchObject({
      status: 200,
      body: { count: 1, entries: [{ kind: 'event', type: 'used' }] },
    })
    expect((await call('GET', '/journal?kind=request&status=0&limit=1')).status).toBe(200)
  })
})
