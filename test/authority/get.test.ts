import { describe, expect, it } from 'vitest'
import { ADMIN, ALICE, BOB, world } from '../support/authority-fixtures.js'

describe('spec 4.2: get a token by id', () => {
  it('a user can read their own token', async () => {
    const { authority, issue, login } = await world()
    const alice = await login(ALICE.id)
    const other = await issue(ALICE.id, { name: 'other' })
    expect((await authority.get(alice, other.token.id))._unsafeUnwrap()).toEqual(other.token)
  })

  it('an administrator can read any token', async () => {
    const { authority, issue, login } = await world()
    const bobs = await issue(BOB.id)
    const admin = await login(ADMIN.id)
    expect((await authority.get(admin, bobs.token.id))._unsafeUnwrap().id).toBe(bobs.token.id)
  })

  it("a non-administrator reading another user's token gets unauthorized", async () => {
    const { authority, issue, login } = await world()
    const bobs = await issue(BOB.id)
    const alice = await login(ALICE.id)
    expect((await authority.get(alice, bobs.token.id))._unsafeUnwrapErr()).toEqual({ type: 'unauthorized' })
  })

  it('a non-administrator reading a missing token gets unauthorized', async () => {
    const { authority, login } = await world()
    const alice = await login(ALICE.id)
    expect((await authority.get(alice, 999))._unsafeUnwrapErr()).toEqual({ type: 'unauthorized' })
  })

  it('an administrator reading a missing token gets not_found', async () => {
    const { authority, login } = await world()
    const admin = await login(ADMIN.id)
    expect((await authority.get(admin, 999))._unsafeUnwrapErr()).toEqual({
      type: 'not_found',
      entity: 'token',
    })
  })

  it('a non-administrator can read their own impersonation token by id', async () => {
    const { authority, issue, login } = await world()
    const imp = await issue(ALICE.id, { impersonation: true })
    const alice = await login(ALICE.id)
    expect((await authority.get(alice, imp.token.id)).isOk()).toBe(true)
  })

  it('a read_api token can read by id; a token with neither api nor read_api cannot', async () => {
    const { authority, login } = await world()
    const reader = await login(ALICE.id, { scopes: ['read_api'] })
    expect((await authority.get(reader, reader.token.id)).isOk()).toBe(true)
    const repo = await login(ALICE.id, { scopes: ['read_repository'] })
    expect((await authority.get(repo, repo.token.id))._unsafeUnwrapErr().type).toBe('insufficient_scope')
  })
})

describe('spec 4.3: get the presented token', () => {
  it('self returns the token that authenticated the call', async () => {
    const { authority, login } = await world()
    const alice = await login(ALICE.id)
    expect((await authority.get(alice, 'self'))._unsafeUnwrap()).toEqual(alice.token)
  })

  it('self can be read with any scope', async () => {
    const { authority, login } = await world()
    const alice = await login(ALICE.id, { scopes: ['read_repository'] })
    expect((await authority.get(alice, 'self'))._unsafeUnwrap().id).toBe(alice.token.id)
  })

  it('self shows the last_used_at written by this very authentication', async () => {
    const { authority, login, clock } = await world()
    const alice = await login(ALICE.id)
    expect((await authority.get(alice, 'self'))._unsafeUnwrap().lastUsedAt).toEqual(clock.now())
  })
})
