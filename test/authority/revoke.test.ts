import { describe, expect, it } from 'vitest'
import { ADMIN, ALICE, BOB, world } from '../support/authority-fixtures.js'

describe('spec 4.6: revoke a token by id', () => {
  it('a non-administrator can revoke their own token', async () => {
    const { authority, store, login, issue, events } = await world()
    const alice = await login(ALICE.id)
    const target = await issue(ALICE.id)
    events.length = 0
    expect((await authority.revoke(alice, target.token.id)).isOk()).toBe(true)
    expect((await store.findById(target.token.id))._unsafeUnwrap()?.revoked).toBe(true)
    expect(events).toMatchObject([
      { type: 'revoked', actorUserId: ALICE.id, token: { id: target.token.id, revoked: true } },
    ])
  })

  it('an administrator can revoke tokens of any user', async () => {
    const { authority, store, login, issue } = await world()
    const admin = await login(ADMIN.id)
    const bobs = await issue(BOB.id, { impersonation: true })
    expect((await authority.revoke(admin, bobs.token.id)).isOk()).toBe(true)
    expect((await store.findById(bobs.token.id))._unsafeUnwrap()?.revoked).toBe(true)
  })

  it("a non-administrator revoking another user's token gets bad_request", async () => {
    const { authority, store, login, issue } = await world()
    const alice = await login(ALICE.id)
    const bobs = await issue(BOB.id)
    expect((await authority.revoke(alice, bobs.token.id))._unsafeUnwrapErr()).toEqual({ type: 'bad_request' })
    expect((await store.findById(bobs.token.id))._unsafeUnwrap()?.revoked).toBe(false)
  })

  it('a non-administrator revoking their own impersonation token gets bad_request', async () => {
    const { authority, login, issue } = await world()
    const alice = await login(ALICE.id)
    const imp = await issue(ALICE.id, { impersonation: true })
    expect((await authority.revoke(alice, imp.token.id))._unsafeUnwrapErr()).toEqual({ type: 'bad_request' })
  })

  it('revoking an unknown id is not_found for everyone', async () => {
    const { authority, login } = await world()
    const alice = await login(ALICE.id)
    const admin = await login(ADMIN.id)
    expect((await authority.revoke(alice, 999))._unsafeUnwrapErr()).toEqual({
      type: 'not_found',
      entity: 'token',
    })
    expect((await authority.revoke(admin, 999))._unsafeUnwrapErr()).toEqual({
      type: 'not_found',
      entity: 'token',
    })
  })

  it('revoking a revoked token succeeds, as in GitLab, without a second event', async () => {
    const { authority, login, issue, events } = await world()
    const alice = await login(ALICE.id)
    const target = await issue(ALICE.id, { revoked: true })
    events.length = 0
    expect((await authority.revoke(alice, target.token.id)).isOk()).toBe(true)
    expect(events).toEqual([])
  })

  it('a read_api token cannot revoke by id', async () => {
    const { authority, login } = await world()
    const alice = await login(ALICE.id, { scopes: ['read_api'] })
    expect((await authority.revoke(alice, alice.token.id))._unsafeUnwrapErr()).toEqual({
      type: 'insufficient_scope',
      required: ['api'],
    })
  })
})

describe('spec 4.7: revoke the presented token', () => {
  it('self revokes the presented token', async () => {
    const { authority, login } = await world()
    const alice = await login(ALICE.id)
    expect((await authority.revoke(alice, 'self')).isOk()).toBe(true)
    expect((await authority.authenticate(alice.secret))._unsafeUnwrapErr().type).toBe('token_revoked')
  })

  it('from 15.4 any token can revoke itself', async () => {
    const { authority, login } = await world({ release: '15.4' })
    const alice = await login(ALICE.id, { scopes: ['read_repository'] })
    expect((await authority.revoke(alice, 'self')).isOk()).toBe(true)
  })

  it('from 15.0 to 15.3 only tokens with the api scope can revoke themselves', async () => {
    const { authority, login } = await world({ release: '15.3' })
    const reader = await login(ALICE.id, { scopes: ['read_api'] })
    expect((await authority.revoke(reader, 'self'))._unsafeUnwrapErr()).toEqual({
      type: 'insufficient_scope',
      required: ['api'],
    })
    const api = await login(ALICE.id, { scopes: ['api'] })
    expect((await authority.revoke(api, 'self')).isOk()).toBe(true)
  })

  it('self revocation does not exist before 15.0', async () => {
    const { authority, login } = await world({ release: '14.10' })
    const alice = await login(ALICE.id)
    expect((await authority.revoke(alice, 'self'))._unsafeUnwrapErr()).toEqual({
      type: 'feature_unavailable',
      feature: 'delete_self',
      release: '14.10',
    })
  })

  it("a non-administrator's impersonation token cannot revoke itself (400)", async () => {
    const { authority, login } = await world()
    const imp = await login(ALICE.id, { impersonation: true })
    expect((await authority.revoke(imp, 'self'))._unsafeUnwrapErr()).toEqual({ type: 'bad_request' })
  })
})
