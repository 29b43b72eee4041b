import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ADMIN, ALICE, BOB } from '../support/authority-fixtures.js'
import { httpWorld } from '../support/http-fixtures.js'

// Random requests thrown at the handler (no socket): whatever arrives, the answer is a GitLab-shaped
// 2xx/4xx, never a 5xx, and every body with content is JSON of one of GitLab's error shapes, or
// GitLab's plain `Bad Request` for a malformed string.

/** Known secrets of the fuzz world; the world's clock is T0 = 2026-03-10T12:00:00Z. */
const SECRETS = {
  rootApi: 'glpat-fuzz-root-api-000001',
  aliceApi: 'glpat-fuzz-alice-api-00001',
  aliceReadApi: 'glpat-fuzz-alice-read-0001',
  bobSelfRotate: 'glpat-fuzz-bob-selfrot-001',
  aliceExpired: 'glpat-fuzz-alice-expired-1',
  bobRevoked: 'glpat-fuzz-bob-revoked-001',
} as const

/** A fresh world per run: runs never depend on each other, so a shrunk counterexample replays alone. */
async function fuzzWorld() {
  const w = await httpWorld()
  await w.issue(ADMIN.id, { id: 1, secret: SECRETS.rootApi })
  await w.issue(ALICE.id, { id: 2, secret: SECRETS.aliceApi })
  await w.issue(ALICE.id, { id: 3, secret: SECRETS.aliceReadApi, scopes: ['read_api'] })
  await w.issue(BOB.id, { id: 4, secret: SECRETS.bobSelfRotate, scopes: ['self_rotate'] })
  await w.issue(ALICE.id, { id: 5, secret: SECRETS.aliceExpired, expiresAt: '2026-01-01' })
  await w.issue(BOB.id, { id: 6, secret: SECRETS.bobRevoked, revoked: true })
  // Rotated from the revoked token 6: presenting 6 to a rotate route triggers reuse detection.
  await w.issue(BOB.id, { id: 7, previousId: 6, name: 'successor' })
  return w.handler
}

// ---------------------------------------------------------------- building blocks

/** One character of a valid header value: visible ASCII, space and Latin-1 (a ByteString, no CR/LF/NUL). */
const headerChar = fc
  .oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0xa0, max: 0xff }))
  .map((c) => String.fromCharCode(c))
const headerValue = fc.string({ unit: headerChar, maxLength: 40 })

const secret = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...Object.values(SECRETS)) },
  fc.constantFrom(
    '',
    'glpat-',
    'glpat-unknown-secret-0001',
    `${SECRETS.rootApi} `,
    SECRETS.rootApi.toUpperCase(),
  ),
  headerValue,
)

/** HTTP methods: the usual ones, lower-case spellings and random tokens (minus those fetch forbids). */
const method = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS') },
  fc.constantFrom('get', 'post', 'delete', 'Delete', 'patch', 'head'),
  fc
    .stringMatching(/^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]{0,11}$/)
    .filter((m) => !['CONNECT', 'TRACE', 'TRACK'].includes(m.toUpperCase())),
)

/** Characters a path segment may hold raw (RFC 3986 pchar minus `%`). */
const pathChar = fc.constantFrom(..."abcxyzABCXYZ0123456789-._~!$&'()*+,;=:@".split(''))

const segment = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'self',
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '0',
      '-1',
      '007',
      '1.5',
      '1e3',
      '0x1',
      '99999999999999999999',
      '9007199254740993',
      'SELF',
      'self%20',
      '%73elf',
      '..',
      '.',
      '',
      '%E0%A4%A',
      '%',
      '%zz',
      '%2F',
      '%00',
      '%C0%AF',
      'rotate',
      'personal_access_tokens',
    ),
  },
  fc.nat({ max: 20 }).map(String),
  fc.string({ unit: 'grapheme', maxLength: 12 }).map(encodeURIComponent),
  fc.string({ unit: pathChar, maxLength: 12 }),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.integer({ min: 1_000, max: 20_000 }).map((n) => 'a'.repeat(n)),
)

/** Segments that name something in the world (ids 1..8 exist or nearly, `self`). */
const idSegment = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('self', '1', '2', '3', '4', '5', '6', '7', '8') },
  segment,
)

/** A route as clients call it: the method that fits the path, most of the time. */
const wellFormed = fc.oneof(
  fc.constantFrom('GET', 'HEAD').map((m) => ({ method: m, route: '/personal_access_tokens' })),
  fc
    .tuple(fc.constantFrom('GET', 'HEAD', 'DELETE'), idSegment)
    .map(([m, id]) => ({ method: m, route: `/personal_access_tokens/${id}` })),
  idSegment.map((id) => ({ method: 'POST', route: `/personal_access_tokens/${id}/rotate` })),
  idSegment.map((id) => ({ method: 'POST', route: `/users/${id}/personal_access_tokens` })),
  fc.constant({ method: 'POST', route: '/user/personal_access_tokens' }),
)

/** Any method on any route-like or random path. */
const anyShape = fc
  .tuple(
    method,
    fc.oneof(
      fc.constant('/personal_access_tokens'),
      segment.map((s) => `/personal_access_tokens/${s}`),
      segment.map((s) => `/personal_access_tokens/${s}/rotate`),
      segment.map((s) => `/users/${s}/personal_access_tokens`),
      fc.constant('/user/personal_access_tokens'),
      fc.array(segment, { maxLength: 5 }).map((ss) => `/${ss.join('/')}`),
    ),
  )
  .map(([m, route]) => ({ method: m, route }))

const basePath = fc.oneof(
  { weight: 12, arbitrary: fc.constant('/api/v4') },
  fc.constantFrom('', '/api', '/api/v3', '/API/V4', '/api/v4/', '//api/v4', '/api/v4/..', '/api/./v4'),
)

const trailing = fc.oneof({ weight: 12, arbitrary: fc.constant('') }, fc.constantFrom('/', '//', '/.', '/..'))

const target = fc
  .tuple(fc.oneof({ weight: 3, arbitrary: wellFormed }, anyShape), basePath, trailing)
  .map(([{ method: m, route }, base, end]) => ({ method: m, path: `${base}${route}${end}` }))

const LIST_PARAMS = [
  'user_id',
  'revoked',
  'state',
  'created_before',
  'created_after',
  'last_used_before',
  'last_used_after',
  'expires_before',
  'expires_after',
  'search',
  'sort',
  'page',
  'per_page',
  'private_token',
] as const

const queryKey = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...LIST_PARAMS) },
  fc.constantFrom('user_id[]', 'state[]', 'page[a]', 'expires_at', 'id', ''),
  fc.string({ unit: 'grapheme', maxLength: 8 }),
)

const queryValue = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '',
      'true',
      'false',
      'TRUE',
      'yes',
      '1',
      '0',
      '-1',
      '101',
      '1000000000000000000000',
      'active',
      'inactive',
      '2026-03-10',
      '2026-03-10T12:00:00Z',
      '2026-03-10T12:00:00+05:30',
      '2026-02-30',
      '10/03/2026',
      'root',
      'alice',
      'nobody',
      'id_desc',
      'name_asc',
      'expires_asc',
      'last_used_desc',
      '%',
      '_',
      'to ke n',
      ...Object.values(SECRETS),
    ),
  },
  fc.integer().map(String),
  fc
    .date({
      min: new Date('1970-01-01T00:00:00Z'),
      max: new Date('2100-01-01T00:00:00Z'),
      noInvalidDate: true,
    })
    .map((d) => d.toISOString()),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
)

/** A query string: encoded pairs, raw pairs (the URL parser encodes what it must) and broken escapes. */
const randomQuery = fc
  .array(
    fc
      .tuple(queryKey, queryValue, fc.constantFrom('encoded', 'encoded', 'raw', 'junk'))
      .map(([k, v, how]) => {
        if (how === 'encoded') return `${encodeURIComponent(k)}=${encodeURIComponent(v)}`
        if (how === 'raw') return `${k}=${v}`
        return `${encodeURIComponent(k)}=${encodeURIComponent(v)}%E0%A4%A%zz`
      }),
    { maxLength: 6 },
  )
  .chain((pairs) =>
    // Repeated keys: sometimes a pair appears twice.
    fc.boolean().map((repeat) => (repeat && pairs[0] !== undefined ? [...pairs, pairs[0]] : pairs)),
  )
  .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.join('&')}`))

const query = fc.oneof({ weight: 3, arbitrary: fc.constant('') }, { weight: 5, arbitrary: randomQuery })

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded; charset=utf-8',
  'text/plain',
  'text/plain;charset=UTF-8',
  'multipart/form-data; boundary=xyz',
  'application/octet-stream',
  ';',
  '',
] as const

/** Absent most of the time: `weight` in 10 runs carry it. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, weight: number): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: 10 - weight, arbitrary: fc.constant(undefined) }, { weight, arbitrary })

const headers = fc
  .record({
    'private-token': sometimes(secret, 8),
    authorization: sometimes(
      fc.oneof(
        secret.map((s) => `Bearer ${s}`),
        secret.map((s) => `bearer   ${s}  `),
        fc.constantFrom(
          'Bearer',
          'Bearer ',
          'Basic cm9vdDpwYXNzd29yZA==',
          'Token abc',
          `Bearer ${SECRETS.aliceApi} extra`,
        ),
        headerValue,
      ),
      3,
    ),
    'content-type': sometimes(
      fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...CONTENT_TYPES) }, headerValue),
      7,
    ),
    'content-length': sometimes(
      fc.oneof(
        fc.constantFrom('0', '-1', 'abc', '1e9', '99999999999', '3', '65536', '65537', ' 12 ', '0x10'),
        fc.nat({ max: 100_000 }).map(String),
      ),
      1,
    ),
    extra: sometimes(fc.tuple(fc.stringMatching(/^[A-Za-z0-9-]{1,20}$/), headerValue), 2),
  })
  .map((h) => {
    const { extra, ...named } = h
    const out: Record<string, string> = {}
    for (const [k, v] of Object.entries(named)) if (v !== undefined) out[k] = v
    if (extra !== undefined) out[extra[0]] = extra[1]
    return out
  })

const BODY_KEYS = ['expires_at', 'name', 'scopes', 'description', 'private_token', 'user_id', 'id'] as const

const jsonObjectWithKnownKeys = fc
  .dictionary(
    fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...BODY_KEYS) }, fc.string({ maxLength: 8 })),
    fc.oneof(
      fc.constantFrom(
        '2026-03-11',
        '2026-04-01',
        '2027-03-10',
        '2027-03-11',
        '2026-03-10',
        '2020-01-01',
        'api',
      ),
      fc.constantFrom(['api'], ['read_api', 'self_rotate'], ['k8s_proxy'], ['sudo'], [], ['nope']),
      fc.constantFrom(...Object.values(SECRETS)),
      fc.jsonValue({ maxDepth: 2 }),
    ),
    { maxKeys: 5 },
  )
  .map((o) => JSON.stringify(o))

const EXPIRY = fc.oneof(
  fc.constantFrom(
    '2026-03-11',
    '2026-04-01',
    '2027-03-10',
    '2027-03-11',
    '2026-03-10',
    '2020-01-01',
    '2026-02-30',
  ),
  fc.string({ maxLength: 12 }),
)

/** Bodies the routes accept: a rotate's `expires_at`, a create's fields. */
const plausibleBody = fc
  .oneof(
    fc.record({ expires_at: EXPIRY }, { requiredKeys: [] }),
    fc.record(
      {
        name: fc.oneof(fc.constantFrom('ci', '', '  ', 'x'.repeat(300)), fc.string({ maxLength: 20 })),
        scopes: fc.oneof(
          fc.constantFrom(
            ['api'],
            ['read_api', 'self_rotate'],
            ['k8s_proxy'],
            ['sudo'],
            [],
            ['nope'],
            'api,read_api',
          ),
          fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }),
        ),
        description: fc.oneof(fc.constant(null), fc.string({ maxLength: 20 })),
        expires_at: EXPIRY,
      },
      { requiredKeys: ['name', 'scopes'] },
    ),
  )
  .map((o) => JSON.stringify(o))

const formBody = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom(...BODY_KEYS, 'scopes[]'), fc.string({ maxLength: 6 })),
      fc.oneof(fc.constantFrom('2026-04-01', 'api', 'ci', SECRETS.aliceApi), fc.string({ maxLength: 12 })),
      fc.boolean(),
    ),
    { maxLength: 5 },
  )
  .map((pairs) =>
    pairs
      .map(([k, v, encoded]) => (encoded ? `${encodeURIComponent(k)}=${encodeURIComponent(v)}` : `${k}=${v}`))
      .join('&'),
  )

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)

/** Bodies are bytes, so fetch adds no content type of its own: only the generated header says what it is. */
const body: fc.Arbitrary<Uint8Array | undefined> = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  fc
    .constantFrom('{}', '[]', 'null', '""', '0', 'true', '{"expires_at":null}', '{"a":', '{"a" 1}', ' ', '\n')
    .map(utf8),
  { weight: 6, arbitrary: plausibleBody.map(utf8) },
  { weight: 3, arbitrary: jsonObjectWithKnownKeys.map(utf8) },
  fc.jsonValue({ maxDepth: 4 }).map((v) => utf8(JSON.stringify(v))),
  fc.string({ unit: 'grapheme', maxLength: 60 }).map(utf8),
  { weight: 2, arbitrary: formBody.map(utf8) },
  fc.uint8Array({ maxLength: 200 }),
  fc.integer({ min: 1, max: 5_000 }).map((n) => utf8(`${'{"a":'.repeat(n)}1${'}'.repeat(n)}`)),
  fc.integer({ min: 1, max: 5_000 }).map((n) => utf8(`${'['.repeat(n)}${']'.repeat(n)}`)),
  // Over the default 64 KiB limit; no content-length is generated for it unless the header says so.
  fc.integer({ min: 64 * 1024 + 1, max: 70_000 }).map((n) => utf8(`{"name":"${'x'.repeat(n)}"}`)),
)

interface FuzzRequest {
  readonly method: string
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: Uint8Array | undefined
}

const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc
  .record({ target, query, headers, body })
  .map(({ target: t, query: q, headers: h, body: b }) => ({
    method: t.method,
    url: `http://gitlab.test${t.path}${q}`,
    headers: h,
    body: b,
  }))

/** Builds the Request; `undefined` when fetch itself refuses it (not the handler's concern). */
function toRequest(r: FuzzRequest): Request | undefined {
  const bodyless = ['GET', 'HEAD'].includes(r.method.toUpperCase())
  try {
    return new Request(r.url, {
      method: r.method,
      headers: r.headers,
      // A copy on its own ArrayBuffer, which is what BodyInit takes.
      ...(r.body === undefined || bodyless ? {} : { body: Uint8Array.from(r.body) }),
    })
  } catch {
    return undefined
  }
}

// ---------------------------------------------------------------- the properties

const isString = (v: unknown): v is string => typeof v === 'string'

/** GitLab's 4xx body shapes: `{message}`, `{error}`, or the OAuth bearer errors. */
function isGitLabErrorBody(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false
  const record = body as Record<string, unknown>
  const keys = Object.keys(record).sort().join(',')
  if (keys === 'message' || keys === 'error') return Object.values(record).every(isString)
  if (keys === 'error,error_description') {
    return record['error'] === 'invalid_token' && isString(record['error_description'])
  }
  if (keys === 'error,error_description,scope') {
    return (
      record['error'] === 'insufficient_scope' &&
      isString(record['error_description']) &&
      isString(record['scope'])
    )
  }
  return false
}

async function check(handler: (request: Request) => Promise<Response>, request: Request, label: string) {
  const response = await handler(request)
  const text = await response.text()
  const where = `${label} -> ${response.status} ${text.slice(0, 200)}`
  expect(response.status, where).toBeGreaterThanOrEqual(200)
  expect(response.status, where).toBeLessThan(500)
  if (response.status === 204) {
    expect(text, where).toBe('')
    return
  }
  if (request.method.toUpperCase() === 'HEAD') {
    // A successful HEAD has GET's headers and no body.
    if (response.status < 300) expect(text, where).toBe('')
    return
  }
  if (response.headers.get('content-type') === 'text/plain') {
    // GitLab's one non-JSON answer: its Rack middleware's 400 for a NUL byte or invalid UTF-8.
    expect([response.status, text], where).toEqual([400, 'Bad Request'])
    return
  }
  expect(response.headers.get('content-type'), where).toBe('application/json')
  let parsed: unknown
  expect(() => {
    parsed = JSON.parse(text)
  }, where).not.toThrow()
  if (response.status >= 400) {
    expect(isGitLabErrorBody(parsed), where).toBe(true)
    const error = (parsed as Record<string, unknown>)['error']
    if (error === 'invalid_token') {
      expect(response.status, where).toBe(401)
      expect(response.headers.get('www-authenticate'), where).toMatch(/^Bearer realm=/)
    }
    if (error === 'insufficient_scope') expect(response.status, where).toBe(403)
  } else {
    expect(typeof parsed === 'object' && parsed !== null, where).toBe(true)
  }
}

describe('HTTP fuzz: random requests at the handler', () => {
  it('never answer 5xx; every body is JSON, every 4xx one of GitLab’s error shapes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fuzzRequest, { minLength: 1, maxLength: 3 }), async (requests) => {
        const built = requests.map(toRequest)
        fc.pre(built.every((r) => r !== undefined))
        const handler = await fuzzWorld()
        // In order, on one world: a rotate or revoke changes what the next request sees.
        for (const [i, request] of built.entries()) {
          if (request === undefined) continue
          const r = requests[i]
          await check(handler, request, `${r?.method} ${r?.url.slice(0, 300)} ${JSON.stringify(r?.headers)}`)
        }
      }),
      { numRuns: 500, seed: 20_260_310 },
    )
  }, 120_000)
})
