import { describe, expect, it } from 'vitest'
import { ADMIN, ALICE, BOB, DAY, T0, world } from '../support/authority-fixtures.js'

describe('spec 4.1: list tokens', () => {
  it('rule 3: without filters a non-administrator receives only their own tokens', async () => {
    const { authority, issue, login } = await world()
    const alice = await login(ALICE.id)
    await issue(BOB.id)
    await issue(ADMIN.id)
    const page = (await authority.list(alice))._unsafeUnwrap()
    expect(page.items.map((t) => t.userId)).toEqual([ALICE.id])
  })

  it('rule 3: without filters an administrator receives all tokens', async () => {
    const { authority, issue, login } = await world()
    await issue(ALICE.id)
    await issue(BOB.id)
    const admin = await login(ADMIN.id)
    const page = (await authority.list(admin))._unsafeUnwrap()
    expect(page.items.map((t) => t.userId).sort()).toEqual([ADMIN.id, ALICE.id, BOB.id])
    expect(page.pagination.total).toBe(3)
  })

  it('rule 4: an administrator may filter by user_id across all tokens', async () => {
    const { authority, issue, login } = await world()
    const bobs = await issue(BOB.id, { name: 'deploy' })
    await issue(ALICE.id, { name: 'deploy' })
    const admin = await login(ADMIN.id)
    const page = (
      await authority.list(admin, { userRef: String(BOB.id), filter: { search: 'deploy' } })
    )._unsafeUnwrap()
    expect(page.items.map((t) => t.id)).toEqual([bobs.token.id])
  })

  it('user_id also accepts a username, as the spec says "integer or string"', async () => {
    const { authority, issue, login } = await world()
    const bobs = await issue(BOB.id)
    const admin = await login(ADMIN.id)
    const page = (await authority.list(admin, { userRef: 'BOB' }))._unsafeUnwrap()
    expect(page.items.map((t) => t.id)).toEqual([bobs.token.id])
  })

  it('an administrator naming an unknown user gets not_found', async () => {
    const { authority, login } = await world()
    const admin = await login(ADMIN.id)
    expect((await authority.list(admin, { userRef: '999' }))._unsafeUnwrapErr()).toEqual({
      type: 'not_found',
      entity: 'user',
    })
    expect((await authority.list(admin, { userRef: 'nobody' }))._unsafeUnwrapErr()).toEqual({
      type: 'not_found',
      entity: 'user',
    })
  })

  it('an administrator giving a blank user_id gets not_found', async () => {
    const { authority, login } = await world()
    const admin = await login(ADMIN.id)
    expect((await authority.list(admin, { userRef: '' }))._unsafeUnwrapErr()).toEqual({
      type: 'not_found',
      entity: 'user',
    })
  })

  it('rule 5: a non-administrator may filter their own tokens, with their own user_id too', async () => {
    const { authority, issue, login } = await world()
    const alice = await login(ALICE.id, { name: 'main' })
    const ci = await issue(ALICE.id, { name: 'ci-runner' })
    await issue(BOB.id, { name: 'ci-runner' })
    const page = (
      await authority.list(alice, { userRef: String(ALICE.id), filter: { search: 'runner' } })
    )._unsafeUnwrap()
    expect(page.items.map((t) => t.id)).toEqual([ci.token.id])
  })

  it('a blank user_id is ignored for a non-administrator', async () => {
    const { authority, login } = await world()
    const alice = await login(ALICE.id)
    expect((await authority.list(alice, { userRef: '' }))._unsafeUnwrap().items).toHaveLength(1)
  })

  it('rule 6: a non-administrator naming another user gets unauthorized', async () => {
    const { authority, login } = await world()
    const alice = await login(ALICE.id)
    expect((await authority.list(alice, { userRef: String(BOB.id) }))._unsafeUnwrapErr()).toEqual({
      type: 'unauthorized',
    })
  })

  it('rule 6: a non-administrator naming an unknown user gets unauthorized', async () => {
    const { authority, login } = await world()
    const alice = await login(ALICE.id)
    expect((await authority.list(alice, { userRef: '999' }))._unsafeUnwrapErr()).toEqual({
      type: 'unauthorized',
    })
  })

  it('impersonation tokens are hidden from a non-administrator list, even their own', async () => {
    const { authority, issue, login } = await world()
    const alice = await login(ALICE.id)
    await issue(ALICE.id, { impersonation: true })
    expect((await authority.list(alice))._unsafeUnwrap().items.map((t) => t.id)).toEqual([alice.token.id])
  })

  it('an administrator sees impersonation tokens', async () => {
    const { authority, issue, login } = await world()
    const imp = await issue(ALICE.id, { impersonation: true })
    const admin = await login(ADMIN.id)
    const page = (await authority.list(admin, { userRef: String(ALICE.id) }))._unsafeUnwrap()
    expect(page.items.map((t) => t.id)).toEqual([imp.token.id])
  })

  it('rule 1: filters can be combined in one request', async () => {
    const { authority, issue, login, clock } = await world()
    const admin = await login(ADMIN.id)
    const keep = await issue(ALICE.id, { name: 'deploy prod', createdAt: new Date(T0.getTime() - 2 * DAY) })
    await issue(ALICE.id, { name: 'deploy prod', revoked: true, createdAt: new Date(T0.getTime() - 2 * DAY) })
    await issue(ALICE.id, { name: 'deploy prod', createdAt: new Date(T0.getTime() - 9 * DAY) })
    await issue(ALICE.id, { name: 'other', createdAt: new Date(T0.getTime() - 2 * DAY) })
    clock.advance(1000)
    const page = (
      await authority.list(admin, {
        filter: {
          search: 'deploy',
          state: 'active',
          revoked: false,
          createdAfter: new Date(T0.getTime() - 5 * DAY),
        },
      })
    )._unsafeUnwrap()
    expect(page.items.map((t) => t.id)).toEqual([keep.token.id])
  })

  it('rule 2: the list filters exist from 15.5; release 15.4 ignores them', async () => {
    const old = await world({ release: '15.4' })
    const alice = await old.login(ALICE.id, { name: 'one' })
    await old.issue(ALICE.id, { name: 'two', revoked: true })
    const page = (
      await old.authority.list(alice, { filter: { revoked: true, search: 'two', state: 'inactive' } })
    )._unsafeUnwrap()
    expect(page.items.map((t) => t.name)).toEqual(['one', 'two'])

    const current = await world({ release: '15.5' })
    const alice2 = await current.login(ALICE.id, { name: 'one' })
    await current.issue(ALICE.id, { name: 'two', revoked: true })
    const page2 = (await current.authority.list(alice2, { filter: { revoked: true } }))._unsafeUnwrap()
    expect(page2.items.map((t) => t.name)).toEqual(['two'])
  })

  it('state=inactive includes expired tokens: inactive is revoked OR expired', async () => {
    const { authority, issue, login } = await world()
    const admin = await login(ADMIN.id)
    const expired = await issue(ALICE.id, { expiresAt: '2026-03-10' })
    const revoked = await issue(ALICE.id, { revoked: true })
    await issue(ALICE.id)
    const page = (
      await authority.list(admin, { userRef: 'alice', filter: { state: 'inactive' } })
    )._unsafeUnwrap()
    expect(page.items.map((t) => t.id)).toEqual([expired.token.id, revoked.token.id])
  })

  it('rule 8 (decided): the default order is id ascending', async () => {
    const { authority, issue, login } = await world()
    const admin = await login(ADMIN.id)
    const b = await issue(BOB.id, { name: 'a' })
    const a = await issue(ALICE.id, { name: 'z' })
    const ids = (await authority.list(admin))._unsafeUnwrap().items.map((t) => t.id)
    expect(ids).toEqual([admin.token.id, b.token.id, a.token.id])
  })

  it('sort keys reorder the list', async () => {
    const { authority, issue, login } = await world()
    const alice = await login(ALICE.id, { name: 'm' })
    await issue(ALICE.id, { name: 'z' })
    await issue(ALICE.id, { name: 'a' })
    const names = (await authority.list(alice, { sort: 'name_desc' }))
      ._unsafeUnwrap()
      .items.map((t) => t.name)
    expect(names).toEqual(['z', 'm', 'a'])
  })

  it('the list is paginated with GitLab numbers', async () => {
    const { authority, issue, login } = await world()
    const alice = await login(ALICE.id)
    for (let i = 0; i < 4; i++) await issue(ALICE.id)
    const page = (await authority.list(alice, { page: { page: 2, perPage: 2 } }))._unsafeUnwrap()
    expect(page.items).toHaveLength(2)
    expect(page.pagination).toMatchObject({
      total: 5,
      totalPages: 3,
      page: 2,
      perPage: 2,
      nextPage: 3,
      prevPage: 1,
    })
  })

  it('per_page is capped at 100', async () => {
    const { authority, login } = await world()
    const alice = await login(ALICE.id)
    expect((await authority.list(alice, { page: { perPage: 500 } }))._unsafeUnwrap().pagination.perPage).toBe(
      100,
    )
  })

  it('a read_api token can list', async () => {
    const { authority, login } = await world()
    const alice = await login(ALICE.id, { scopes: ['read_api'] })
    expect((await authority.list(alice)).isOk()).toBe(true)
  })

  it('a token without api or read_api cannot list', async () => {
    const { authority, login } = await world()
    const alice = await login(ALICE.id, { scopes: ['read_repository'] })
    expect((await authority.list(alice))._unsafeUnwrapErr()).toEqual({
      type: 'insufficient_scope',
      required: ['api', 'read_api'],
    })
  })
})
