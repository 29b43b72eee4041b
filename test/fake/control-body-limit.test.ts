import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import type { Clock } from '../../src/domain/clock.js'
import { seededRandom } from '../../src/domain/random.js'
import { controllableClock } from '../../src/fake/controllable-clock.js'
import { type FakeAuthorityOptions, fakeAuthority } from '../../src/fake/fake-authority.js'
import { createFakeGitLab, type FakeGitLab } from '../../src/fake/fake-gitlab.js'
import { memoryStore } from '../../src/memory/memory-store.js'

// The control API reads a body only up to its route's limit: 64 KiB, or the bulk limit (16 MiB by
// default, `controlBodyLimit`) for PUT /state and POST /users. A body past it is 413 naming the limit,
// refused as soon as it passes it (or at once when its Content-Length says so), never read whole.

const KIB = 1024
const START = new Date('2026-01-01T00:00:00.000Z')

async function fake(options: Partial<FakeAuthorityOptions> = {}) {
  const built = await fakeAuthority({
    store: memoryStore(),
    freshStore: () => memoryStore(),
    pepper: 'a-test-pepper-for-body-limits',
    clock: controllableClock({ now: () => START }, { frozen: true }),
    random: () => seededRandom(1),
    seed: { users: [{ id: 1, username: 'root', admin: true }] },
    ...options,
  })
  if (built.isErr()) throw new Error(JSON.stringify(built.error))
  return built.value
}

/** A body of `total` bytes in `chunk`-byte pieces, made only as pulled; `pulled()` says how much was. */
function countingStream(total: number, chunk = 16 * KIB) {
  let pulled = 0
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= total) {
        controller.close()
        return
      }
      const size = Math.min(chunk, total - pulled)
      pulled += size
      controller.enqueue(new Uint8Array(size).fill(0x20))
    },
  })
  return { stream, pulled: () => pulled }
}

function streamed(method: string, path: string, body: ReadableStream<Uint8Array>, headers = {}): Request {
  return new Request(`http://127.0.0.1/__patkit${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body,
    duplex: 'half',
  } as RequestInit)
}

describe('in process: a streamed body past the limit is refused without being read whole', () => {
  it('POST /clock/advance with a 1 GiB stream is 413 after at most 64 KiB and one chunk', async () => {
    const { control, clock } = await fake()
    const body = countingStream(1024 * 1024 * KIB)
    const response = await control(streamed('POST', '/clock/advance', body.stream))
    expect(response.status).toBe(413)
    expect(response.headers.get('connection')).toBe('close')
    expect(await response.json()).toEqual({
      error: 'the body is larger than 65536 bytes (64 KiB), the limit of POST /__patkit/clock/advance',
    })
    expect(body.pulled()).toBeLessThanOrEqual(64 * KIB + 2 * 16 * KIB) // the chunk past the limit, and one the stream pre-fetched
    expect(clock.now()).toEqual(START)
  })

  it('PUT /state takes the bulk limit: 413 past controlBodyLimit, naming it and the flag', async () => {
    const { control, state } = await fake({ controlBodyLimit: 256 * KIB })
    const body = countingStream(64 * 1024 * KIB)
    const response = await control(streamed('PUT', '/state', body.stream))
    expect(response.status).toBe(413)
    expect(await response.json()).toEqual({
      error:
        'the body is larger than 262144 bytes (256 KiB), the limit of PUT /__patkit/state (patkit serve --control-body-limit raises it)',
    })
    expect(body.pulled()).toBeLessThanOrEqual(256 * KIB + 2 * 16 * KIB)
    // Nothing was replaced.
    const snapshot = await state.snapshot()
    expect(snapshot._unsafeUnwrap().users.map((u) => u.username)).toEqual(['root'])
  })

  it('a Content-Length over the limit is refused before a byte is read', async () => {
    const { control } = await fake()
    const body = countingStream(20 * 1024 * KIB)
    // A Request computes no length for a stream; the header is what a client announced.
    const announced = streamed('PUT', '/state', body.stream, { 'content-length': String(17 * 1024 * KIB) })
    expect(announced.headers.get('content-length')).toBe(String(17 * 1024 * KIB))
    const response = await control(announced)
    expect(response.status).toBe(413)
    expect(await response.json()).toMatchObject({
      error: expect.stringContaining('16777216 bytes (16 MiB), the limit of PUT /__patkit/state'),
    })
    expect(body.pulled()).toBeLessThanOrEqual(16 * KIB) // at most the one chunk a stream pre-fetches
  })

  it('exactly 64 KiB is read; one byte more is 413', async () => {
    const { control, faults } = await fake()
    const rule = '{"path": "/api/v4/version", "status": 503}'
    const padded = (size: number) =>
      new Request('http://127.0.0.1/__patkit/faults', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: rule + ' '.repeat(size - rule.length),
      })
    expect((await control(padded(64 * KIB))).status).toBe(201)
    expect((await control(padded(64 * KIB + 1))).status).toBe(413)
    expect(faults.list()).toHaveLength(1)
  })

  it('routes without a body read one only up to 64 KiB too, and ignore it', async () => {
    const { control } = await fake()
    const small = await control(
      new Request('http://127.0.0.1/__patkit/clock/freeze', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"ignored": true}',
      }),
    )
    expect(small.status).toBe(200)
    const body = countingStream(1024 * 1024 * KIB)
    const large = await control(streamed('POST', '/reset', body.stream))
    expect(large.status).toBe(413)
    expect(body.pulled()).toBeLessThanOrEqual(64 * KIB + 2 * 16 * KIB) // the chunk past the limit, and one the stream pre-fetched
  })
})

describe('the bulk routes take a data set larger than 64 KiB', () => {
  it('PUT /state restores 600 tokens (about 100 KiB) and POST /users adds 2000 users in one batch', async () => {
    const { control, state } = await fake()
    const users = [{ id: 1, username: 'root', admin: true }]
    const tokens = Array.from({ length: 600 }, (_, i) => ({
      id: i + 1,
      user_id: 1,
      name: `token-${i}`,
      scopes: ['api'],
      token: `glpat-restored-secret-${String(i).padStart(6, '0')}`,
      expires_at: '2027-01-01',
    }))
    const body = JSON.stringify({ users, tokens })
    expect(body.length).toBeGreaterThan(64 * KIB)
    const restored = await control(
      new Request('http://127.0.0.1/__patkit/state', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body,
      }),
    )
    expect([restored.status, await restored.json()]).toEqual([
      200,
      { users: 1, tokens: 600, groups: 0, projects: 0 },
    ])
    const batch = Array.from({ length: 2000 }, (_, i) => ({ id: i + 10, username: `user-${i}` }))
    expect(JSON.stringify(batch).length).toBeGreaterThan(64 * KIB)
    const added = await control(
      new Request('http://127.0.0.1/__patkit/users', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(batch),
      }),
    )
    expect(added.status).toBe(201)
    expect((await state.snapshot())._unsafeUnwrap().users).toHaveLength(2001)
  })

  it('POST /tokens (one token) keeps the 64 KiB limit', async () => {
    const { control } = await fake()
    const response = await control(
      new Request('http://127.0.0.1/__patkit/tokens', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user_id: 1, name: 'x', scopes: ['api'], description: 'x'.repeat(70 * KIB) }),
      }),
    )
    expect(response.status).toBe(413)
  })
})

describe('on a socket', () => {
  const running: FakeGitLab<Clock>[] = []
  afterEach(async () => {
    await Promise.all(running.splice(0).map((gitlab) => gitlab.close()))
  })

  // Sends `head`, then `body` pieces while the socket takes them, and resolves with what came back
  // once the server closed the connection (or a bounded wait passed).
  function send(port: number, head: string, pieces: readonly string[]): Promise<string> {
    return new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(head)
        for (const piece of pieces) socket.write(piece)
      })
      let text = ''
      socket.on('data', (chunk) => {
        text += chunk.toString('utf8')
      })
      socket.on('error', () => {}) // a reset after the answer is the point: the rest is not read
      socket.on('close', () => resolve(text))
      setTimeout(() => {
        socket.destroy()
        resolve(text)
      }, 10_000)
    })
  }

  it('a 600 MB Content-Length is answered 413 at once, the connection closed, with no byte of it sent', async () => {
    const gitlab = await createFakeGitLab({ clock: START })
    running.push(gitlab)
    const port = Number(new URL(gitlab.url).port)
    const answer = await send(
      port,
      'PUT /__patkit/state HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 600000000\r\n\r\n',
      [],
    )
    expect(answer).toMatch(/^HTTP\/1\.1 413 /)
    expect(answer).toMatch(/\r\nconnection: close\r\n/i)
    expect(answer).toContain(
      '"the body is larger than 16777216 bytes (16 MiB), the limit of PUT /__patkit/state',
    )
  })

  it('a chunked body past 64 KiB is answered 413 while it is still being sent', async () => {
    const gitlab = await createFakeGitLab({ clock: START })
    running.push(gitlab)
    const port = Number(new URL(gitlab.url).port)
    const piece = ' '.repeat(32 * KIB)
    const chunk = `${piece.length.toString(16)}\r\n${piece}\r\n`
    // Never finished: the server must answer without the rest.
    const answer = await send(
      port,
      'POST /__patkit/clock/advance HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
      [chunk, chunk, chunk, chunk],
    )
    expect(answer).toMatch(/^HTTP\/1\.1 413 /)
    expect(answer).toContain('the limit of POST /__patkit/clock/advance')
    expect(gitlab.clock.now()).toEqual(START)
  })
})
