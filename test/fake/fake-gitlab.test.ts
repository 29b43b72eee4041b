import { createServer } from 'node:net'
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest'
import { type ManualClock, systemClock } from '../../src/domain/clock.js'
import { createFakeGitLab, type FakeGitLab, type FakeGitLabOptions } from '../../src/fake/index.js'
import type { Clock } from '../../src/index.js'

const EXPIRED = {
  error: 'invalid_token',
  error_description: 'Token is expired. You can either do re-authorization or token refresh.',
}

const open: FakeGitLab<Clock>[] = []
afterEach(async () => {
  await Promise.all(open.splice(0).map((gitlab) => gitlab.close()))
})

async function start(options: FakeGitLabOptions = {}): Promise<FakeGitLab> {
  const gitlab = await createFakeGitLab(options)
  open.push(gitlab)
  return gitlab
}

function self(gitlab: FakeGitLab, secret: string): Promise<Response> {
  return fetch(`${gitlab.apiUrl}/personal_access_tokens/self`, { headers: { 'PRIVATE-TOKEN': secret } })
}

/** Whether a TCP port on 127.0.0.1 can be bound (so nothing holds it any more). */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer()
    probe.once('error', () => resolve(false))
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)))
  })
}

describe('createFakeGitLab', () => {
  it('listens on an ephemeral port of 127.0.0.1 and serves the API at apiUrl', async () => {
    const gitlab = await start()
    expect(gitlab.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(gitlab.apiUrl).toBe(`${gitlab.url}/api/v4`)
    const response = await fetch(`${gitlab.apiUrl}/personal_access_tokens`)
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({ message: '401 Unauthorized' })
  })

  it('issues a token the API accepts over the socket, for the default users root and alice', async () => {
    const gitlab = await start()
    const { token, secret } = await gitlab.issueToken({ userId: 2, name: 'ci', scopes: ['api'] })
    const response = await self(gitlab, secret)
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ id: token.id, user_id: 2, name: 'ci', active: true })
    const root = await gitlab.issueToken({ userId: 1, name: 'admin', scopes: ['api'] })
    const all = await fetch(`${gitlab.apiUrl}/personal_access_tokens`, {
      headers: { 'PRIVATE-TOKEN': root.secret },
    })
    expect(((await all.json()) as unknown[]).length).toBe(2)
  })

  it('starts its manual clock at 2026-01-01T00:00:00.000Z and expires tokens when advanced', async () => {
    const gitlab = await start()
    expect(gitlab.clock.now().toISOString()).toBe('2026-01-01T00:00:00.000Z')
    const { secret } = await gitlab.issueToken({
      userId: 2,
      name: 'short',
      scopes: ['read_api'],
      expiresAt: '2026-01-03',
    })
    expect((await self(gitlab, secret)).status).toBe(200)
    gitlab.clock.advance(24 * 60 * 60 * 1000)
    expect((await self(gitlab, secret)).status).toBe(200)
    // A token is expired from 00:00 UTC of its expires_at day.
    gitlab.clock.set(new Date('2026-01-03T00:00:00.000Z'))
    const expired = await self(gitlab, secret)
    expect(expired.status).toBe(401)
    expect(await expired.json()).toEqual(EXPIRED)
  })

  it('loads users and tokens in the seed format, known secrets, ids and dates included', async () => {
    const gitlab = await start({
      clock: new Date('2030-06-01T00:00:00.000Z'),
      users: [{ id: 5, username: 'bob' }],
      tokens: [
        {
          id: 50,
          user_id: 5,
          name: 'deploy',
          scopes: ['api'],
          token: 'glpat-known-secret',
          created_at: '2030-01-01T12:00:00.000Z',
          expires_at: '2031-01-01',
        },
      ],
    })
    const response = await self(gitlab, 'glpat-known-secret')
    expect(await response.json()).toMatchObject({
      id: 50,
      user_id: 5,
      created_at: '2030-01-01T12:00:00.000Z',
      expires_at: '2031-01-01',
      last_used_at: '2030-06-01T00:00:00.000Z',
    })
    await expect(gitlab.issueToken({ userId: 1, name: 'x', scopes: ['api'] })).rejects.toThrow(
      'createFakeGitLab: issueToken: user_id: No user with id 1',
    )
  })

  it('rejects an invalid seed, naming the field', async () => {
    await expect(
      createFakeGitLab({
        tokens: [{ user_id: 1, name: 'x', scopes: ['api', 'nope' as 'api'], token: 'glpat-12345678' }],
      }),
    ).rejects.toThrow(/^createFakeGitLab: tokens\[0\]\.scopes\[1\]: Invalid option/)
    await expect(
      createFakeGitLab({ tokens: [{ user_id: 9, name: 'x', scopes: ['api'], token: 'glpat-12345678' }] }),
    ).rejects.toThrow('createFakeGitLab: tokens[0].user_id: No user with id 9')
  })

  it('passes release and publicUrl through', async () => {
    const gitlab = await start({ release: '16.9', publicUrl: 'https://gitlab.example.com' })
    const { secret } = await gitlab.issueToken({ userId: 1, name: 'a', scopes: ['api'] })
    await gitlab.issueToken({ userId: 1, name: 'b', scopes: ['api'] })
    const rotate = await fetch(`${gitlab.apiUrl}/personal_access_tokens/self/rotate`, {
      method: 'POST',
      headers: { 'PRIVATE-TOKEN': secret },
    })
    expect(rotate.status).toBe(404)
    const page = await fetch(`${gitlab.apiUrl}/personal_access_tokens?per_page=1`, {
      headers: { 'PRIVATE-TOKEN': secret },
    })
    expect(page.headers.get('link')).toContain(
      '<https://gitlab.example.com/api/v4/personal_access_tokens?page=2',
    )
  })

  it('answers through its handler without the socket', async () => {
    const gitlab = await start()
    const { secret } = await gitlab.issueToken({ userId: 2, name: 'ci', scopes: ['api'] })
    const response = await gitlab.handler(
      new Request('http://fake/api/v4/personal_access_tokens/self', { headers: { 'PRIVATE-TOKEN': secret } }),
    )
    expect(response.status).toBe(200)
  })

  it('close() frees the port, and a second close() is harmless', async () => {
    const gitlab = await createFakeGitLab()
    const port = Number(new URL(gitlab.url).port)
    // A keep-alive connection from fetch must not hold the server open.
    expect((await fetch(`${gitlab.apiUrl}/personal_access_tokens`)).status).toBe(401)
    await gitlab.close()
    await gitlab.close()
    expect(await portIsFree(port)).toBe(true)
    await expect(fetch(`${gitlab.apiUrl}/personal_access_tokens`)).rejects.toThrow()
  })

  it('types: the clock is a ManualClock unless another kind of clock is given', async () => {
    const manual = await start()
    expectTypeOf(manual.clock).toEqualTypeOf<ManualClock>()
    const fromDate = await start({ clock: new Date('2030-01-01T00:00:00.000Z') })
    expectTypeOf(fromDate.clock).toEqualTypeOf<ManualClock>()
    const real = await createFakeGitLab({ clock: systemClock })
    open.push(real)
    expectTypeOf(real.clock).toEqualTypeOf<Clock>()
    expect(real.clock).toBe(systemClock)
  })
})
