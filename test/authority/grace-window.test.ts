import { describe, expect, it } from 'vitest'
import { createHandler } from '../../src/http/index.js'
import { createAuthority } from '../../src/index.js'
import { memoryStore } from '../../src/memory/index.js'
import { ADMIN, ALICE, BOB, world } from '../support/authority-fixtures.js'

const GRACE_MS = 30_000

/** A world with a grace window, Alice's token rotated by itself once: the old token and the answer. */
async function rotatedOnce(options: Parameters<typeof world>[0] = { rotationGraceMs: GRACE_MS }) {
  const w = await world(options)
  const first = await w.login(ALICE.id)
  const rotated = (await w.authority.rotate(first, 'self', { presentedSecret: first.secret }))._unsafeUnwrap()
  w.events.length = 0
  return { ...w, first, rotated }
}

describe('issue 13: the rotation grace window', () => {
  it('is off by default: the previous token is revoked at once and a replay finds nothing', async () => {
    const { authority, first } = await rotatedOnce({})
    expect((await authority.authenticate(first.secret))._unsafeUnwrapErr().type).toBe('token_revoked')
    expect((await authority.requests.replayRotation(first.secret, 'self', null))._unsafeUnwrap()).toBeNull()
  })

  it('keeps the previous token working inside the window, and not from its end on', async () => {
    const { authority, clock, first, rotated } = await rotatedOnce()
    clock.advance(GRACE_MS - 1)
    const principal = (await authority.authenticate(first.secret))._unsafeUnwrap()
    expect(principal.token).toMatchObject({ id: first.token.id, revoked: true })
    expect((await authority.verify(first.secret))._unsafeUnwrap().valid).toBe(true)
    clock.advance(1)
    expect((await authority.authenticate(first.secret))._unsafeUnwrapErr()).toEqual({
      type: 'token_revoked',
      tokenId: first.token.id,
    })
    // Outside the window it is today's reuse detection again.
    expect((await authority.authenticate(first.secret, { rotateRequest: true })).isErr()).toBe(true)
    expect((await authority.authenticate(rotated.secret))._unsafeUnwrapErr().type).toBe('token_revoked')
  })

  it('answers a replayed rotation inside the window with the same successor, once, not reuse detection', async () => {
    const { authority, first, rotated, events } = await rotatedOnce()
    const replayed = (await authority.requests.replayRotation(first.secret, 'self', null))._unsafeUnwrap()
    expect(replayed).toEqual(rotated)
    expect(events).toMatchObject([{ type: 'rotation_replayed', previous: { id: first.token.id } }])
    expect((await authority.requests.replayRotation(first.secret, 'self', null))._unsafeUnwrap()).toBeNull()
    // Then the rotation goes on: the previous token still authenticates for it, and rotating a revoked
    // token is refused as GitLab refuses it, without revoking the successor.
    const again = (await authority.authenticate(first.secret, { rotateRequest: true }))._unsafeUnwrap()
    expect(
      (await authority.rotate(again, 'self', { presentedSecret: first.secret }))._unsafeUnwrapErr(),
    ).toEqual({
      type: 'already_revoked',
      tokenId: first.token.id,
    })
    expect((await authority.authenticate(rotated.secret)).isOk()).toBe(true)
  })

  it('replays by the token’s own id as by self, and not for a client Idempotency-Key', async () => {
    const { authority, first, rotated } = await rotatedOnce()
    expect(
      (await authority.requests.replayRotation(first.secret, first.token.id + 100, null))._unsafeUnwrap(),
    ).toBeNull()
    expect(
      (await authority.requests.replayRotation(first.secret, 'self', 'some-key'))._unsafeUnwrap(),
    ).toBeNull()
    expect(
      (await authority.requests.replayRotation(first.secret, first.token.id, null))._unsafeUnwrap(),
    ).toEqual(rotated)
  })

  it('does not replay once the successor was used', async () => {
    const { authority, first, rotated } = await rotatedOnce()
    ;(await authority.authenticate(rotated.secret))._unsafeUnwrap()
    expect((await authority.requests.replayRotation(first.secret, 'self', null))._unsafeUnwrap()).toBeNull()
    expect((await authority.authenticate(first.secret)).isOk()).toBe(true)
  })

  it('never covers an older generation, nor a predecessor whose successor was revoked', async () => {
    const { authority, first, rotated } = await rotatedOnce()
    const second = (await authority.authenticate(rotated.secret))._unsafeUnwrap()
    const third = (
      await authority.rotate(second, 'self', { presentedSecret: rotated.secret })
    )._unsafeUnwrap()
    expect((await authority.authenticate(first.secret))._unsafeUnwrapErr().type).toBe('token_revoked')
    expect((await authority.requests.replayRotation(first.secret, 'self', null))._unsafeUnwrap()).toBeNull()
    expect((await authority.authenticate(rotated.secret)).isOk()).toBe(true)
    const session = (await authority.asUser(ALICE.id))._unsafeUnwrap()
    ;(await authority.revoke(session, third.token.id))._unsafeUnwrap()
    expect((await authority.authenticate(rotated.secret))._unsafeUnwrapErr().type).toBe('token_revoked')
  })

  it('a rotation by id from a session keeps the previous token working, with nothing to replay', async () => {
    const { authority, issue } = await world({ rotationGraceMs: GRACE_MS })
    const own = await issue(ALICE.id)
    const session = (await authority.asUser(ALICE.id))._unsafeUnwrap()
    ;(await authority.rotate(session, own.token.id))._unsafeUnwrap()
    expect((await authority.authenticate(own.secret)).isOk()).toBe(true)
    expect((await authority.requests.replayRotation(own.secret, 'self', null))._unsafeUnwrap()).toBeNull()
  })

  it('a rotation with a presented secret that is not the principal’s keeps no grace receipt', async () => {
    const { authority, login } = await world({ rotationGraceMs: GRACE_MS })
    const alice = await login(ALICE.id)
    const other = await login(ALICE.id)
    ;(await authority.rotate(alice, 'self', { presentedSecret: other.secret }))._unsafeUnwrap()
    expect((await authority.requests.replayRotation(alice.secret, 'self', null))._unsafeUnwrap()).toBeNull()
    expect((await authority.requests.replayRotation(other.secret, 'self', null))._unsafeUnwrap()).toBeNull()
  })

  it('is checked at start-up: at most a day', () => {
    for (const rotationGraceMs of [-1, 0.5, 86_400_001]) {
      expect(() => createAuthority({ store: memoryStore(), pepper: 'p', rotationGraceMs })).toThrow(
        /invalid option rotationGraceMs: /,
      )
    }
  })
})

// Issue 19, item 8: a token in its grace period authenticates (reads work, its own rotation can be
// replayed), but it writes nothing: no rotation, revocation or creation, so the window can never
// mint a credential that outlives it. Refused as GitLab refuses a revoked token: 401 token_revoked.
describe('issue 19: what a token in its grace period may do', () => {
  const REVOKED = { type: 'token_revoked' } as const

  it('may not rotate its successor (or any other token) by id: no credential outlives the window', async () => {
    const { authority, store, first, rotated, issue } = await rotatedOnce()
    const graced = (await authority.authenticate(first.secret, { rotateRequest: true }))._unsafeUnwrap()
    expect(graced.token.revoked).toBe(true)
    expect((await authority.rotate(graced, rotated.token.id))._unsafeUnwrapErr()).toEqual({
      ...REVOKED,
      tokenId: first.token.id,
    })
    const other = await issue(ALICE.id)
    expect((await authority.rotate(graced, other.token.id))._unsafeUnwrapErr()).toMatchObject(REVOKED)
    // Nothing was rotated (a rotation revokes the token it rotates): both are active as they were.
    for (const id of [rotated.token.id, other.token.id]) {
      expect((await store.findById(id))._unsafeUnwrap()?.revoked).toBe(false)
    }
    expect((await authority.authenticate(rotated.secret)).isOk()).toBe(true)
    // Rotating itself stays what docs/rotation.md says: already revoked (400), no reuse detection.
    expect((await authority.rotate(graced, 'self'))._unsafeUnwrapErr().type).toBe('already_revoked')
    expect((await authority.rotate(graced, first.token.id))._unsafeUnwrapErr().type).toBe('already_revoked')
  })

  it('answers the HTTP rotation of its successor by id with 401 invalid_token, as a revoked token', async () => {
    const { authority, first, rotated } = await rotatedOnce()
    const handler = createHandler(authority)
    const response = await handler(
      new Request(`http://gitlab.test/api/v4/personal_access_tokens/${rotated.token.id}/rotate`, {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': first.secret },
      }),
    )
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({
      error: 'invalid_token',
      error_description: 'Token was revoked. You have to re-authorize from the user.',
    })
    expect((await authority.authenticate(rotated.secret)).isOk()).toBe(true)
  })

  it('may not revoke: neither itself nor its successor', async () => {
    const { authority, store, first, rotated } = await rotatedOnce()
    const graced = (await authority.authenticate(first.secret))._unsafeUnwrap()
    expect((await authority.revoke(graced, rotated.token.id))._unsafeUnwrapErr()).toMatchObject(REVOKED)
    expect((await authority.revoke(graced, 'self'))._unsafeUnwrapErr()).toMatchObject(REVOKED)
    expect((await store.findById(rotated.token.id))._unsafeUnwrap()?.revoked).toBe(false)
  })

  it('may not create tokens, its own nor (an administrator’s) for others, nor impersonation tokens', async () => {
    const { authority, clock, login } = await world({ rotationGraceMs: GRACE_MS })
    const request = { name: 'minted', scopes: ['self_rotate'], expiresAt: '2026-12-01' }
    for (const userId of [ALICE.id, ADMIN.id]) {
      const first = await login(userId)
      ;(await authority.rotate(first, 'self', { presentedSecret: first.secret }))._unsafeUnwrap()
      clock.advance(1)
      const graced = (await authority.authenticate(first.secret))._unsafeUnwrap()
      expect(graced.token.revoked).toBe(true)
      expect((await authority.create(graced, 'self', request))._unsafeUnwrapErr()).toMatchObject(REVOKED)
      expect((await authority.createOwn(graced, request))._unsafeUnwrapErr()).toMatchObject(REVOKED)
      expect((await authority.create(graced, BOB.id, request))._unsafeUnwrapErr()).toMatchObject(REVOKED)
      expect(
        (
          await authority.impersonation.create(graced, BOB.id, { name: 'minted', scopes: ['api'] })
        )._unsafeUnwrapErr(),
      ).toMatchObject(REVOKED)
    }
  })

  it('still reads: its own token, its list, its successor', async () => {
    const { authority, first, rotated } = await rotatedOnce()
    const graced = (await authority.authenticate(first.secret))._unsafeUnwrap()
    expect((await authority.get(graced, 'self'))._unsafeUnwrap().id).toBe(first.token.id)
    expect((await authority.get(graced, rotated.token.id))._unsafeUnwrap().id).toBe(rotated.token.id)
    expect((await authority.list(graced))._unsafeUnwrap().items.length).toBeGreaterThan(0)
  })
})
