import { describe, expect, it } from 'vitest'
import { USER_BLOCKED } from '../../src/authority/core/as-user.js'
import { ADMIN, ALICE, BLOCKED, BOB, world } from '../support/authority-fixtures.js'

describe('issue 13: a session principal (asUser) acts on its user’s own tokens', () => {
  it('is the user, without a token, for an existing user', async () => {
    const { authority } = await world()
    const session = (await authority.asUser(ALICE.id))._unsafeUnwrap()
    expect(session).toEqual({ kind: 'session', user: ALICE, token: null })
  })

  it('refuses an unknown user (not_found) and a blocked one (forbidden)', async () => {
    const { authority } = await world()
    expect((await authority.asUser(999))._unsafeUnwrapErr()).toEqual({ type: 'not_found', entity: 'user' })
    expect((await authority.asUser(1.5))._unsafeUnwrapErr()).toEqual({ type: 'not_found', entity: 'user' })
    expect((await authority.asUser(BLOCKED.id))._unsafeUnwrapErr()).toEqual({
      type: 'forbidden',
      reason: USER_BLOCKED,
    })
  })

  it('lists, creates, reads, rotates and revokes its own tokens, whatever their scopes', async () => {
    const { authority, issue, events } = await world()
    const own = await issue(ALICE.id, { scopes: ['read_user'] })
    await issue(BOB.id)
    const session = (await authority.asUser(ALICE.id))._unsafeUnwrap()

    const listed = (await authority.list(session))._unsafeUnwrap()
    expect(listed.items.map((t) => t.id)).toEqual([own.token.id])

    const created = (
      await authority.createOwn(session, { name: 'laptop', scopes: ['api'], expiresAt: '2026-06-01' })
    )._unsafeUnwrap()
    expect(created.token).toMatchObject({ userId: ALICE.id, scopes: ['api'], expiresAt: '2026-06-01' })
    expect(events.at(-1)).toMatchObject({ type: 'created', actorUserId: ALICE.id })

    expect((await authority.get(session, own.token.id))._unsafeUnwrap().id).toBe(own.token.id)

    const rotated = (await authority.rotate(session, own.token.id))._unsafeUnwrap()
    expect(rotated.token.previousId).toBe(own.token.id)
    expect((await authority.authenticate(rotated.secret))._unsafeUnwrap().user).toEqual(ALICE)
    expect((await authority.authenticate(own.secret))._unsafeUnwrapErr().type).toBe('token_revoked')

    ;(await authority.revoke(session, created.token.id))._unsafeUnwrap()
    expect((await authority.authenticate(created.secret))._unsafeUnwrapErr().type).toBe('token_revoked')
  })

  it('cannot see or touch another user’s tokens', async () => {
    const { authority, issue } = await world()
    const bobs = await issue(BOB.id)
    const session = (await authority.asUser(ALICE.id))._unsafeUnwrap()
    expect((await authority.get(session, bobs.token.id))._unsafeUnwrapErr()).toEqual({ type: 'unauthorized' })
    expect((await authority.rotate(session, bobs.token.id))._unsafeUnwrapErr()).toEqual({
      type: 'unauthorized',
    })
    expect((await authority.revoke(session, bobs.token.id))._unsafeUnwrapErr()).toEqual({
      type: 'bad_request',
    })
    expect((await authority.list(session, { userRef: String(BOB.id) }))._unsafeUnwrapErr()).toEqual({
      type: 'unauthorized',
    })
  })

  it('is never an administrator, even for an administrator user', async () => {
    const { authority, issue } = await world()
    const adminsOwn = await issue(ADMIN.id)
    const bobs = await issue(BOB.id)
    const session = (await authority.asUser(ADMIN.id))._unsafeUnwrap()
    const listed = (await authority.list(session))._unsafeUnwrap()
    expect(listed.items.map((t) => t.id)).toEqual([adminsOwn.token.id])
    expect((await authority.get(session, bobs.token.id))._unsafeUnwrapErr()).toEqual({ type: 'unauthorized' })
    expect(
      (await authority.create(session, BOB.id, { name: 'x', scopes: ['api'] }))._unsafeUnwrapErr(),
    ).toEqual({ type: 'forbidden' })
    // Its own account is still an administrator's: admin-only scopes stay available to it.
    const sudo = (await authority.createOwn(session, { name: 'sudo', scopes: ['sudo'] }))._unsafeUnwrap()
    expect(sudo.token.scopes).toEqual(['sudo'])
  })

  it('has no token, so self fails with no_token instead of throwing', async () => {
    const { authority } = await world()
    const session = (await authority.asUser(ALICE.id))._unsafeUnwrap()
    expect((await authority.get(session, 'self'))._unsafeUnwrapErr()).toEqual({ type: 'no_token' })
    expect((await authority.rotate(session, 'self'))._unsafeUnwrapErr()).toEqual({ type: 'no_token' })
    expect((await authority.revoke(session, 'self'))._unsafeUnwrapErr()).toEqual({ type: 'no_token' })
    expect((await authority.users.current(session))._unsafeUnwrap()).toEqual(ALICE)
  })

  it('a rotation by a session keeps no Idempotency receipt: the presented secret is no token of it', async () => {
    const { authority, issue } = await world()
    const own = await issue(ALICE.id)
    const session = (await authority.asUser(ALICE.id))._unsafeUnwrap()
    const rotated = await authority.rotate(session, own.token.id, {
      idempotency: { key: 'k-1', presentedSecret: own.secret },
    })
    expect(rotated._unsafeUnwrapErr().type).toBe('bad_request')
  })
})
