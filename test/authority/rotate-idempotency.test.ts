import { errAsync } from 'neverthrow'
import { describe, expect, it } from 'vitest'
import { DEFAULT_ROTATION_REPLAY_WINDOW_MS } from '../../src/authority/core/replay-window.js'
import { createAuthority, type Principal } from '../../src/index.js'
import { memoryStore } from '../../src/memory/index.js'
import type { TokenStore } from '../../src/store/index.js'
import { ALICE, BLOCKED, BOB, DAY, T0, world } from '../support/authority-fixtures.js'

const KEY = '8e03978e-40d5-43e8-bc93-6894a57f9324'
const WINDOW = DEFAULT_ROTATION_REPLAY_WINDOW_MS

type World = Awaited<ReturnType<typeof world>>

/** Logs in as Alice with a fresh token and rotates it through `self` with the key. */
async function rotatedWithKey(w: World, key = KEY) {
  const old = await w.login(ALICE.id)
  const rotated = (
    await w.authority.rotate(old, 'self', { idempotency: { key, presentedSecret: old.secret } })
  )._unsafeUnwrap()
  return { old, rotated }
}

async function revokedNow(w: World, id: number): Promise<boolean | undefined> {
  return (await w.store.findById(id))._unsafeUnwrap()?.revoked
}

describe('Idempotency-Key on rotate: the replay', () => {
  it('the same old token with the same key gets the same successor (id and secret), once', async () => {
    const w = await world()
    const { old, rotated } = await rotatedWithKey(w)
    const replayed = (await w.authority.requests.replayRotation(old.secret, 'self', KEY))._unsafeUnwrap()
    expect(replayed).toEqual(rotated)
    expect(await revokedNow(w, rotated.token.id)).toBe(false)
    // The receipt is spent: a second replay finds nothing, and the request goes on as without a key.
    expect((await w.authority.requests.replayRotation(old.secret, 'self', KEY))._unsafeUnwrap()).toBeNull()
    const again = await w.authority.authenticate(old.secret, { rotateRequest: true })
    expect(again._unsafeUnwrapErr()).toEqual({ type: 'token_revoked', tokenId: old.token.id })
    expect(await revokedNow(w, rotated.token.id)).toBe(true)
  })

  it('the replayed secret authenticates, and is the successor of the presented token', async () => {
    const w = await world()
    const { old, rotated } = await rotatedWithKey(w)
    const replayed = (await w.authority.requests.replayRotation(old.secret, 'self', KEY))._unsafeUnwrap()
    const principal = (await w.authority.authenticate(replayed?.secret))._unsafeUnwrap()
    expect(principal.token).toMatchObject({ id: rotated.token.id, previousId: old.token.id })
  })

  it('a replay is recorded as a rotation_replayed event, without a secret', async () => {
    const w = await world()
    const { old, rotated } = await rotatedWithKey(w)
    w.events.length = 0
    w.clock.advance(1000)
    await w.authority.requests.replayRotation(old.secret, 'self', KEY)
    expect(w.events).toEqual([
      {
        type: 'rotation_replayed',
        at: new Date(T0.getTime() + 1000),
        actorUserId: ALICE.id,
        previous: expect.objectContaining({ id: old.token.id, revoked: true }),
        token: expect.objectContaining({ id: rotated.token.id, revoked: false }),
      },
    ])
    expect(JSON.stringify(w.events)).not.toContain(rotated.secret)
  })

  it('another key, or no key on the rotation, never replays; reuse detection runs as without a key', async () => {
    const w = await world()
    const { old, rotated } = await rotatedWithKey(w)
    expect(
      (await w.authority.requests.replayRotation(old.secret, 'self', `${KEY}-2`))._unsafeUnwrap(),
    ).toBeNull()
    expect((await w.authority.authenticate(old.secret, { rotateRequest: true })).isErr()).toBe(true)
    expect(await revokedNow(w, rotated.token.id)).toBe(true)

    const plain = await w.login(ALICE.id)
    const next = (await w.authority.rotate(plain, 'self'))._unsafeUnwrap()
    expect((await w.authority.requests.replayRotation(plain.secret, 'self', KEY))._unsafeUnwrap()).toBeNull()
    expect(await revokedNow(w, next.token.id)).toBe(false)
  })

  it('the key of one token never replays the rotation of another', async () => {
    const w = await world()
    const a = await rotatedWithKey(w)
    const b = await rotatedWithKey(w)
    // Each old token gets its own successor back with the shared key.
    expect((await w.authority.requests.replayRotation(b.old.secret, 'self', KEY))._unsafeUnwrap()).toEqual(
      b.rotated,
    )
    expect((await w.authority.requests.replayRotation(a.old.secret, 'self', KEY))._unsafeUnwrap()).toEqual(
      a.rotated,
    )
    // A token that was not rotated (still active) replays nothing, whatever the key.
    const c = await w.login(ALICE.id)
    expect((await w.authority.requests.replayRotation(c.secret, 'self', KEY))._unsafeUnwrap()).toBeNull()
    // Presenting the successor (not the rotated token) replays nothing either.
    expect(
      (await w.authority.requests.replayRotation(a.rotated.secret, 'self', KEY))._unsafeUnwrap(),
    ).toBeNull()
  })

  it('the window: replayable until rotation + window, not from then on', async () => {
    const w = await world()
    const { old, rotated } = await rotatedWithKey(w)
    w.clock.advance(WINDOW - 1)
    expect((await w.authority.requests.replayRotation(old.secret, 'self', KEY))._unsafeUnwrap()).toEqual(
      rotated,
    )

    const late = await rotatedWithKey(w)
    w.clock.advance(WINDOW)
    expect(
      (await w.authority.requests.replayRotation(late.old.secret, 'self', KEY))._unsafeUnwrap(),
    ).toBeNull()
  })

  it('the window is configurable', async () => {
    const w = await world({ rotationReplayWindowMs: 1000 })
    const { old } = await rotatedWithKey(w)
    w.clock.advance(1000)
    expect((await w.authority.requests.replayRotation(old.secret, 'self', KEY))._unsafeUnwrap()).toBeNull()
  })

  it('not once the successor was used, rotated or revoked', async () => {
    const w = await world()
    const used = await rotatedWithKey(w)
    await w.authority.authenticate(used.rotated.secret)
    expect(
      (await w.authority.requests.replayRotation(used.old.secret, 'self', KEY))._unsafeUnwrap(),
    ).toBeNull()

    const rotatedOn = await rotatedWithKey(w)
    const successor: Principal = { user: used.old.user, token: rotatedOn.rotated.token }
    await w.authority.rotate(successor, 'self')
    expect(
      (await w.authority.requests.replayRotation(rotatedOn.old.secret, 'self', KEY))._unsafeUnwrap(),
    ).toBeNull()

    const revoked = await rotatedWithKey(w)
    await w.store.revoke(revoked.rotated.token.id)
    expect(
      (await w.authority.requests.replayRotation(revoked.old.secret, 'self', KEY))._unsafeUnwrap(),
    ).toBeNull()
  })

  it('by id: the rotated token addressing itself replays; another id does not', async () => {
    const w = await world()
    const { old, rotated } = await rotatedWithKey(w)
    const other = await w.issue(ALICE.id)
    expect(
      (await w.authority.requests.replayRotation(old.secret, other.token.id, KEY))._unsafeUnwrap(),
    ).toBeNull()
    expect(
      (await w.authority.requests.replayRotation(old.secret, old.token.id, KEY))._unsafeUnwrap(),
    ).toEqual(rotated)
  })

  it('only where the request would otherwise reach reuse detection: not for an expired token, a blocked user, a missing scope or an unknown secret', async () => {
    const w = await world()
    // Expired: a rotation on the token's last day, replayed after midnight UTC.
    const expiring = await w.login(ALICE.id, { expiresAt: '2026-03-11' })
    await w.authority.rotate(expiring, 'self', {
      idempotency: { key: KEY, presentedSecret: expiring.secret },
    })
    w.clock.set(new Date('2026-03-11T00:00:00.000Z'))
    expect(
      (await w.authority.requests.replayRotation(expiring.secret, 'self', KEY))._unsafeUnwrap(),
    ).toBeNull()

    // A blocked owner.
    const w2 = await world()
    const blockedOwner = { ...BLOCKED, blocked: false }
    await w2.authority.users.put(blockedOwner)
    const mallory = await w2.login(BLOCKED.id)
    await w2.authority.rotate(mallory, 'self', { idempotency: { key: KEY, presentedSecret: mallory.secret } })
    await w2.authority.users.put(BLOCKED)
    expect(
      (await w2.authority.requests.replayRotation(mallory.secret, 'self', KEY))._unsafeUnwrap(),
    ).toBeNull()

    // A self_rotate-only token rotated itself through `self`; by id it would need `api`.
    const w3 = await world()
    const selfOnly = await w3.login(BOB.id, { scopes: ['self_rotate'] })
    const next = (
      await w3.authority.rotate(selfOnly, 'self', {
        idempotency: { key: KEY, presentedSecret: selfOnly.secret },
      })
    )._unsafeUnwrap()
    expect(
      (await w3.authority.requests.replayRotation(selfOnly.secret, selfOnly.token.id, KEY))._unsafeUnwrap(),
    ).toBeNull()
    expect(
      (await w3.authority.requests.replayRotation(selfOnly.secret, 'self', KEY))._unsafeUnwrap(),
    ).toEqual(next)

    expect(
      (await w3.authority.requests.replayRotation('glpat-unknown', 'self', KEY))._unsafeUnwrap(),
    ).toBeNull()
    expect((await w3.authority.requests.replayRotation('', 'self', KEY))._unsafeUnwrap()).toBeNull()
    expect((await w3.authority.requests.replayRotation(null, 'self', KEY))._unsafeUnwrap()).toBeNull()
  })

  it('an invalid key never replays (the request goes on, and the rotation reports the key)', async () => {
    const w = await world()
    const { old } = await rotatedWithKey(w)
    expect((await w.authority.requests.replayRotation(old.secret, 'self', ''))._unsafeUnwrap()).toBeNull()
    expect(
      (await w.authority.requests.replayRotation(old.secret, 'self', 'k\u0000'))._unsafeUnwrap(),
    ).toBeNull()
  })
})

describe('Idempotency-Key on rotate: the rotation', () => {
  it('an invalid key is an invalid_parameter, and nothing is rotated', async () => {
    const w = await world()
    const old = await w.login(ALICE.id)
    for (const key of ['', 'x'.repeat(256), 'tab\there', 'é']) {
      expect(
        (
          await w.authority.rotate(old, 'self', { idempotency: { key, presentedSecret: old.secret } })
        )._unsafeUnwrapErr(),
      ).toEqual({ type: 'invalid_parameter', parameter: 'Idempotency-Key', reason: 'invalid' })
    }
    expect(await revokedNow(w, old.token.id)).toBe(false)
  })

  it('rotating another token by id with a key rotates it and keeps no receipt', async () => {
    const w = await world()
    const caller = await w.login(ALICE.id)
    const target = await w.issue(ALICE.id)
    const rotated = (
      await w.authority.rotate(caller, target.token.id, {
        idempotency: { key: KEY, presentedSecret: caller.secret },
      })
    )._unsafeUnwrap()
    expect(rotated.token.previousId).toBe(target.token.id)
    expect((await w.authority.requests.replayRotation(target.secret, 'self', KEY))._unsafeUnwrap()).toBeNull()
    expect(
      (await w.authority.requests.replayRotation(target.secret, target.token.id, KEY))._unsafeUnwrap(),
    ).toBeNull()
  })

  it('a presented secret that is not the principal’s is refused', async () => {
    const w = await world()
    const old = await w.login(ALICE.id)
    const result = await w.authority.rotate(old, 'self', {
      idempotency: { key: KEY, presentedSecret: `${old.secret}x` },
    })
    expect(result._unsafeUnwrapErr()).toEqual({
      type: 'bad_request',
      reason: 'the presented secret is not the principal’s token',
    })
    expect(await revokedNow(w, old.token.id)).toBe(false)
  })

  it('rotationReplayWindowMs: 0 turns the key off: ignored, as GitLab ignores an unknown header', async () => {
    const w = await world({ rotationReplayWindowMs: 0 })
    const old = await w.login(ALICE.id)
    const rotated = await w.authority.rotate(old, 'self', {
      idempotency: { key: '', presentedSecret: 'any' },
    })
    expect(rotated.isOk()).toBe(true)
    const again = await w.login(ALICE.id)
    await w.authority.rotate(again, 'self', { idempotency: { key: KEY, presentedSecret: again.secret } })
    expect((await w.authority.requests.replayRotation(again.secret, 'self', KEY))._unsafeUnwrap()).toBeNull()
  })

  it.each([-1, 1.5, DAY + 1])('rotationReplayWindowMs %s is refused', (value) => {
    expect(() =>
      createAuthority({ store: memoryStore(), pepper: 'p', rotationReplayWindowMs: value }),
    ).toThrow(/invalid option rotationReplayWindowMs/)
  })

  it('the default window is 10 minutes', () => {
    expect(DEFAULT_ROTATION_REPLAY_WINDOW_MS).toBe(10 * 60 * 1000)
  })

  it('a store failure while consuming is a store_failure, never a throw', async () => {
    const inner = memoryStore()
    const failure = {
      type: 'store_failure',
      operation: 'consumeRotationReceipt',
      cause: new Error('down'),
    } as const
    const store: TokenStore = { ...inner, consumeRotationReceipt: () => errAsync(failure) }
    const authority = createAuthority({ store, pepper: 'p' })
    await authority.users.put(ALICE)
    const issued = (
      await authority.issueToken({ userId: ALICE.id, name: 'ci', scopes: ['api'] })
    )._unsafeUnwrap()
    const principal = (await authority.authenticate(issued.secret))._unsafeUnwrap()
    await authority.rotate(principal, 'self', { idempotency: { key: KEY, presentedSecret: issued.secret } })
    expect((await authority.requests.replayRotation(issued.secret, 'self', KEY))._unsafeUnwrapErr()).toEqual(
      failure,
    )
  })
})
