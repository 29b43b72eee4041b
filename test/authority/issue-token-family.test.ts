import { afterEach, describe, expect, it } from 'vitest'
import { createFakeGitLab, type FakeGitLab } from '../../src/fake/fake-gitlab.js'
import { ALICE, BOB, world } from '../support/authority-fixtures.js'

// Issue 19, item 7 (leftover): issueToken took any `previousId`, so a token put in place after a
// still-active token, another user's token, or a token rotated already forked its family (two active
// tokens that both authenticate; the next rotation answers 500). The seed loader refused such data;
// issueToken now refuses it too, with the loader's wording, before anything is stored.

async function count(store: Awaited<ReturnType<typeof world>>['store']): Promise<number> {
  const listed = await store.list({
    filter: {},
    sort: 'id_asc',
    page: { page: 1, perPage: 100 },
    now: new Date(0),
  })
  return listed._unsafeUnwrap().total
}

describe('issueToken keeps token families whole', () => {
  it('refuses a previousId naming a token that is still active, storing nothing', async () => {
    const { authority, store, issue } = await world()
    const active = await issue(ALICE.id)
    const before = await count(store)
    const refused = await authority.issueToken({
      userId: ALICE.id,
      name: 'next',
      scopes: ['api'],
      previousId: active.token.id,
    })
    expect(refused._unsafeUnwrapErr()).toEqual({
      type: 'validation_failed',
      message: `token ${active.token.id} is still active; a token's predecessor must be revoked`,
    })
    expect(await count(store)).toBe(before)
    expect((await store.findById(active.token.id))._unsafeUnwrap()?.revoked).toBe(false)
  })

  it("refuses a previousId naming another user's token", async () => {
    const { authority, store, issue } = await world()
    const bobs = await issue(BOB.id, { revoked: true })
    const before = await count(store)
    const refused = await authority.issueToken({
      userId: ALICE.id,
      name: 'next',
      scopes: ['api'],
      previousId: bobs.token.id,
    })
    expect(refused._unsafeUnwrapErr()).toEqual({
      type: 'validation_failed',
      message: `token ${bobs.token.id} belongs to user ${BOB.id}, not user ${ALICE.id}; a token's predecessor must be the same user's`,
    })
    expect(await count(store)).toBe(before)
  })

  it('refuses a second successor of a token rotated already', async () => {
    const { authority, store, issue } = await world()
    const old = await issue(ALICE.id, { revoked: true })
    const next = await issue(ALICE.id, { previousId: old.token.id })
    const before = await count(store)
    const refused = await authority.issueToken({
      userId: ALICE.id,
      name: 'fork',
      scopes: ['api'],
      previousId: old.token.id,
    })
    expect(refused._unsafeUnwrapErr()).toEqual({
      type: 'validation_failed',
      message: `token ${old.token.id} already has a successor (token ${next.token.id}); a token is rotated at most once`,
    })
    expect(await count(store)).toBe(before)
  })

  it('still continues a family from a revoked token of the same user without a successor', async () => {
    const { authority, issue } = await world()
    const old = await issue(ALICE.id, { revoked: true })
    const next = await issue(ALICE.id, { previousId: old.token.id })
    expect(next.token).toMatchObject({
      previousId: old.token.id,
      familyId: old.token.familyId,
      revoked: false,
    })
    expect((await authority.authenticate(next.secret)).isOk()).toBe(true)
  })
})

describe('createFakeGitLab().issueToken', () => {
  let gitlab: FakeGitLab | undefined
  afterEach(async () => gitlab?.close())

  it('rejects a previousId naming an active token with the reason', async () => {
    gitlab = await createFakeGitLab({
      tokens: [{ id: 5, user_id: 2, name: 'ci', scopes: ['api'], token: 'glpat-family-active-0001' }],
    })
    await expect(
      gitlab.issueToken({ userId: 2, name: 'next', scopes: ['api'], previousId: 5 }),
    ).rejects.toThrow(
      "createFakeGitLab: issueToken: token 5 is still active; a token's predecessor must be revoked",
    )
    const tokens = (await gitlab.snapshot()).tokens
    expect(tokens.map((t) => t.id)).toEqual([5])
  })
})
