import { afterEach, describe, expect, it } from 'vitest'
import { createFakeGitLab, type FakeGitLab } from '../../src/fake/fake-gitlab.js'
import { MAX_FAULT_BODY_BYTES, MAX_FAULT_BODY_DEPTH } from '../../src/fake/faults.js'

// Issue 20, item 3: a fault body nested 5,000 levels deep was stored and then answered 500, and so did
// every GET /__patkit/faults until a reset; a status of 100-199 made the client wait for a final answer
// that never came. A rule is now checked whole before it is stored, and 400 says why. Rules can also
// set response headers (a 429 with Retry-After), checked as RFC 9110 fields.

const ALICE = 'glpat-faults-alice-secret-01'
const SELF = '/api/v4/personal_access_tokens/self'

const running: FakeGitLab[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((gitlab) => gitlab.close()))
})

async function start(): Promise<FakeGitLab> {
  const gitlab = await createFakeGitLab({
    tokens: [{ id: 2, user_id: 2, name: 'ci', scopes: ['api'], token: ALICE, expires_at: '2026-06-01' }],
  })
  running.push(gitlab)
  return gitlab
}

async function control(gitlab: FakeGitLab, method: string, path: string, body?: string) {
  const response = await fetch(`${gitlab.url}/__patkit${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body }),
  })
  const text = await response.text()
  return { status: response.status, body: text === '' ? null : (JSON.parse(text) as unknown) }
}

const addRule = (gitlab: FakeGitLab, rule: unknown) =>
  control(gitlab, 'POST', '/faults', typeof rule === 'string' ? rule : JSON.stringify(rule))
const self = (gitlab: FakeGitLab) => fetch(`${gitlab.url}${SELF}`, { headers: { 'PRIVATE-TOKEN': ALICE } })

function nested(levels: number): string {
  return `${'['.repeat(levels)}${']'.repeat(levels)}`
}

describe('fault rules are checked whole before they are stored', () => {
  it('a body nested 5,000 levels deep is 400 with the reason, nothing is stored, and the rules still list', async () => {
    const gitlab = await start()
    const refused = await addRule(gitlab, `{"status": 500, "body": ${nested(5000)}}`)
    expect(refused).toEqual({
      status: 400,
      body: { error: `body must nest at most ${MAX_FAULT_BODY_DEPTH} levels deep` },
    })
    expect(await control(gitlab, 'GET', '/faults')).toEqual({ status: 200, body: [] })
    expect(gitlab.faults.list()).toEqual([])
    expect((await self(gitlab)).status).toBe(200)
  })

  it('a body at the depth limit is stored and answered; one level more is refused', async () => {
    const gitlab = await start()
    expect(
      (await addRule(gitlab, `{"status": 500, "body": ${nested(MAX_FAULT_BODY_DEPTH + 1)}}`)).status,
    ).toBe(400)
    const added = await addRule(
      gitlab,
      `{"status": 500, "times": 1, "body": ${nested(MAX_FAULT_BODY_DEPTH)}}`,
    )
    expect(added.status).toBe(201)
    expect((await control(gitlab, 'GET', '/faults')).status).toBe(200)
    const answer = await self(gitlab)
    expect([answer.status, await answer.text()]).toEqual([500, nested(MAX_FAULT_BODY_DEPTH)])
  })

  it('a body larger than the size limit is refused and not stored (over HTTP the request limit answers first)', async () => {
    const gitlab = await start()
    const rule = { status: 500, body: { message: 'x'.repeat(MAX_FAULT_BODY_BYTES) } }
    // The control API reads at most 64 KiB of a request, so such a rule is 413 before it is parsed.
    expect((await addRule(gitlab, rule)).status).toBe(413)
    expect(gitlab.faults.list()).toEqual([])
    const added = gitlab.faults.add(rule)
    expect(added.isErr() && added.error).toBe(`body must be at most ${MAX_FAULT_BODY_BYTES} bytes as JSON`)
    expect(gitlab.faults.list()).toEqual([])
  })

  it('in process, a body that is no JSON data (a cycle) is refused and not stored; a stored body is a copy', async () => {
    const gitlab = await start()
    const cyclic: Record<string, unknown> = {}
    cyclic['self'] = cyclic
    expect(gitlab.faults.add({ status: 500, body: cyclic }).isErr()).toBe(true)
    expect(gitlab.faults.list()).toEqual([])
    const body = { message: 'down' }
    expect(gitlab.faults.add({ path: SELF, status: 503, body }).isOk()).toBe(true)
    body.message = 'changed afterwards'
    const answer = await self(gitlab)
    expect([answer.status, await answer.json()]).toEqual([503, { message: 'down' }])
  })
})

describe('fault statuses are final answers', () => {
  it.each([100, 150, 199])('status %i is 400 and not stored', async (status) => {
    const gitlab = await start()
    const refused = await addRule(gitlab, { status })
    expect(refused).toEqual({
      status: 400,
      body: {
        error:
          'status must be an integer from 200 to 599: a client takes a 1xx for an interim answer and waits for the final one',
      },
    })
    expect(gitlab.faults.list()).toEqual([])
  })

  it('a 204 answers without content or content type; a body with it, and status 205, are refused', async () => {
    const gitlab = await start()
    expect(await addRule(gitlab, { status: 204, body: { message: 'x' } })).toEqual({
      status: 400,
      body: { error: 'body is refused with status 204, which answers without content' },
    })
    expect((await addRule(gitlab, { status: 205 })).status).toBe(400)
    expect(gitlab.faults.list()).toEqual([])
    expect((await addRule(gitlab, { path: SELF, status: 204, times: 1 })).status).toBe(201)
    const answer = await self(gitlab)
    expect([answer.status, answer.headers.get('content-type'), await answer.text()]).toEqual([204, null, ''])
  })
})

describe('fault response headers', () => {
  it('a 429 with Retry-After and RateLimit-Reset reaches the client with its headers', async () => {
    const gitlab = await start()
    const rule = {
      path: SELF,
      status: 429,
      times: 1,
      body: { message: 'Retry later' },
      headers: { 'Retry-After': '30', 'RateLimit-Reset': '1767225630' },
    }
    const added = await addRule(gitlab, rule)
    expect(added).toMatchObject({ status: 201, body: { headers: rule.headers } })
    const answer = await self(gitlab)
    expect(answer.status).toBe(429)
    expect(answer.headers.get('retry-after')).toBe('30')
    expect(answer.headers.get('ratelimit-reset')).toBe('1767225630')
    expect(answer.headers.get('content-type')).toBe('application/json')
    expect(await answer.json()).toEqual({ message: 'Retry later' })
    expect((await self(gitlab)).status).toBe(200) // spent after one
  })

  it('a Content-Type of the rule replaces the default', async () => {
    const gitlab = await start()
    await addRule(gitlab, { path: SELF, status: 502, headers: { 'Content-Type': 'text/plain' } })
    const answer = await self(gitlab)
    expect([answer.status, answer.headers.get('content-type')]).toEqual([502, 'text/plain'])
  })

  it.each([
    [{ 'Content-Length': '5' }, 'headers: Content-Length is refused: the server frames the answer itself'],
    [
      { 'transfer-encoding': 'chunked' },
      'headers: transfer-encoding is refused: the server frames the answer itself',
    ],
    [{ Connection: 'close' }, 'headers: Connection is refused: the server frames the answer itself'],
    [{ 'Bad Name': 'x' }, 'headers: "Bad Name" is not a header name (RFC 9110 token)'],
    [{ 'X-A': 'x', 'x-a': 'y' }, 'headers: x-a is given twice'],
    [{ 'X-Number': 30 }, 'headers: the value of X-Number must be text'],
    [
      { 'X-Split': 'a\r\nSet-Cookie: b' },
      'headers: the value of X-Split must be one line of at most 8192 characters (no CR, LF or control characters)',
    ],
  ])('headers %j are 400: %s', async (headers, message) => {
    const gitlab = await start()
    expect(await addRule(gitlab, { status: 429, headers })).toEqual({ status: 400, body: { error: message } })
    expect(gitlab.faults.list()).toEqual([])
  })

  it('headers need a status, as a body does', async () => {
    const gitlab = await start()
    expect(await addRule(gitlab, { delayMs: 10, headers: { 'Retry-After': '1' } })).toEqual({
      status: 400,
      body: { error: 'headers needs status' },
    })
    expect(await addRule(gitlab, { status: 429, headers: ['Retry-After'] })).toEqual({
      status: 400,
      body: { error: 'headers must be an object of header names to text values' },
    })
  })
})
