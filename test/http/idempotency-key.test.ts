import { describe, expect, it } from 'vitest'
import { DEFAULT_ROTATION_REPLAY_WINDOW_MS } from '../../src/authority/core/replay-window.js'
import { ALICE } from '../support/authority-fixtures.js'
import { httpWorld } from '../support/http-fixtures.js'

const KEY = '8e03978e-40d5-43e8-bc93-6894a57f9324'
const REVOKED_BODY = {
  error: 'invalid_token',
  error_description: 'Token was revoked. You have to re-authorize from the user.',
}

describe('Idempotency-Key on POST .../rotate', () => {
  it('self/rotate with a key, answered again with the same successor (same id, same secret), once', async () => {
    const w = await httpWorld()
    const old = await w.issue(ALICE.id)
    const headers = { 'Idempotency-Key': KEY }
    const first = await w.call('POST', '/personal_access_tokens/self/rotate', { token: old.secret, headers })
    expect(first.status).toBe(200)
    expect(first.headers.get('idempotent-replayed')).toBeNull()
    const replay = await w.call('POST', '/personal_access_tokens/self/rotate', { token: old.secret, headers })
    expect(replay.status).toBe(200)
    expect(replay.text).toBe(first.text)
    expect(replay.headers.get('content-type')).toBe('application/json')
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    // Once: the next presentation of the old token is reuse, as without a key.
    const third = await w.call('POST', '/personal_access_tokens/self/rotate', { token: old.secret, headers })
    expect(third.status).toBe(401)
    expect(third.json).toEqual(REVOKED_BODY)
    const successor = (first.json as { token: string }).token
    expect((await w.call('GET', '/personal_access_tokens/self', { token: successor })).status).toBe(401)
  })

  it('by id: the token rotating itself replays through /:id/rotate too', async () => {
    const w = await httpWorld()
    const old = await w.issue(ALICE.id)
    const path = `/personal_access_tokens/${old.token.id}/rotate`
    const headers = { 'Idempotency-Key': KEY }
    const first = await w.call('POST', path, { token: old.secret, headers })
    const replay = await w.call('POST', path, { token: old.secret, headers })
    expect(first.status).toBe(200)
    expect(replay.text).toBe(first.text)
  })

  it('a replayed successor works: it authenticates, and rotates on', async () => {
    const w = await httpWorld()
    const old = await w.issue(ALICE.id)
    const headers = { 'Idempotency-Key': KEY }
    await w.call('POST', '/personal_access_tokens/self/rotate', { token: old.secret, headers })
    const replay = await w.call('POST', '/personal_access_tokens/self/rotate', { token: old.secret, headers })
    const secret = (replay.json as { token: string }).token
    expect((await w.call('GET', '/personal_access_tokens/self', { token: secret })).status).toBe(200)
    const next = await w.call('POST', '/personal_access_tokens/self/rotate', { token: secret })
    expect(next.status).toBe(200)
  })

  it('another key: reuse detection, 401, the successor revoked', async () => {
    const w = await httpWorld()
    const old = await w.issue(ALICE.id)
    const first = await w.call('POST', '/personal_access_tokens/self/rotate', {
      token: old.secret,
      headers: { 'Idempotency-Key': KEY },
    })
    const other = await w.call('POST', '/personal_access_tokens/self/rotate', {
      token: old.secret,
      headers: { 'Idempotency-Key': `${KEY}-retry` },
    })
    expect(other.status).toBe(401)
    expect(other.json).toEqual(REVOKED_BODY)
    const successor = (first.json as { token: string }).token
    expect((await w.call('GET', '/personal_access_tokens/self', { token: successor })).status).toBe(401)
  })

  it('a retry without the key is reuse, exactly as without the feature', async () => {
    const w = await httpWorld()
    const old = await w.issue(ALICE.id)
    await w.call('POST', '/personal_access_tokens/self/rotate', {
      token: old.secret,
      headers: { 'Idempotency-Key': KEY },
    })
    const retry = await w.call('POST', '/personal_access_tokens/self/rotate', { token: old.secret })
    expect(retry.status).toBe(401)
    expect(retry.json).toEqual(REVOKED_BODY)
    // The receipt is still there, but its successor is revoked now: the key cannot bring it back.
    const late = await w.call('POST', '/personal_access_tokens/self/rotate', {
      token: old.secret,
      headers: { 'Idempotency-Key': KEY },
    })
    expect(late.status).toBe(401)
  })

  it('after the window the old token is reuse again', async () => {
    const w = await httpWorld()
    const old = await w.issue(ALICE.id)
    const headers = { 'Idempotency-Key': KEY }
    await w.call('POST', '/personal_access_tokens/self/rotate', { token: old.secret, headers })
    w.clock.advance(DEFAULT_ROTATION_REPLAY_WINDOW_MS)
    const late = await w.call('POST', '/personal_access_tokens/self/rotate', { token: old.secret, headers })
    expect(late.status).toBe(401)
  })

  it.each([
    ['empty', ''],
    ['longer than 255', 'k'.repeat(256)],
    ['non-ASCII', 'cl\u00e9'],
  ])(
    'an invalid key (%s) is 400 {"error":"Idempotency-Key is invalid"} and rotates nothing',
    async (_, key) => {
      const w = await httpWorld()
      const old = await w.issue(ALICE.id)
      const refused = await w.call('POST', '/personal_access_tokens/self/rotate', {
        token: old.secret,
        headers: { 'Idempotency-Key': key },
      })
      expect(refused.status).toBe(400)
      expect(refused.text).toBe('{"error":"Idempotency-Key is invalid"}')
      expect((await w.call('GET', '/personal_access_tokens/self', { token: old.secret })).status).toBe(200)
    },
  )

  it('an invalid key with a revoked token: authentication first, so reuse detection and 401', async () => {
    const w = await httpWorld()
    const old = await w.issue(ALICE.id)
    const first = await w.call('POST', '/personal_access_tokens/self/rotate', { token: old.secret })
    const retry = await w.call('POST', '/personal_access_tokens/self/rotate', {
      token: old.secret,
      headers: { 'Idempotency-Key': '' },
    })
    expect(retry.status).toBe(401)
    const successor = (first.json as { token: string }).token
    expect((await w.call('GET', '/personal_access_tokens/self', { token: successor })).status).toBe(401)
  })

  it('rotationReplayWindowMs: 0 ignores the header, as GitLab does', async () => {
    const w = await httpWorld({ rotationReplayWindowMs: 0 })
    const old = await w.issue(ALICE.id)
    const first = await w.call('POST', '/personal_access_tokens/self/rotate', {
      token: old.secret,
      headers: { 'Idempotency-Key': '' },
    })
    expect(first.status).toBe(200)
    const retry = await w.call('POST', '/personal_access_tokens/self/rotate', {
      token: old.secret,
      headers: { 'Idempotency-Key': '' },
    })
    expect(retry.status).toBe(401)
  })

  it('the key is ignored on every other route', async () => {
    const w = await httpWorld()
    const old = await w.issue(ALICE.id)
    const headers = { 'Idempotency-Key': '' }
    expect((await w.call('GET', '/personal_access_tokens/self', { token: old.secret, headers })).status).toBe(
      200,
    )
    expect(
      (await w.call('DELETE', '/personal_access_tokens/self', { token: old.secret, headers })).status,
    ).toBe(204)
  })

  it('rotating another token by id with a key rotates it; a retry is the usual 400, nothing revoked', async () => {
    const w = await httpWorld()
    const caller = await w.issue(ALICE.id)
    const target = await w.issue(ALICE.id)
    const path = `/personal_access_tokens/${target.token.id}/rotate`
    const headers = { 'Idempotency-Key': KEY }
    const first = await w.call('POST', path, { token: caller.secret, headers })
    expect(first.status).toBe(200)
    const retry = await w.call('POST', path, { token: caller.secret, headers })
    expect(retry.status).toBe(400)
    expect(retry.json).toEqual({ message: '400 Bad request - Token already revoked' })
    const successor = (first.json as { token: string }).token
    expect((await w.call('GET', '/personal_access_tokens/self', { token: successor })).status).toBe(200)
  })

  it('a replay with an unknown body parameter is not a replay (the original could not have had it)', async () => {
    const w = await httpWorld()
    const old = await w.issue(ALICE.id)
    const headers = { 'Idempotency-Key': KEY }
    await w.call('POST', '/personal_access_tokens/self/rotate', { token: old.secret, headers })
    const odd = await w.call('POST', '/personal_access_tokens/self/rotate', {
      token: old.secret,
      headers,
      body: { surprise: 1 },
    })
    expect(odd.status).toBe(401)
  })
})
