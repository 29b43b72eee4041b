import { errAsync } from 'neverthrow'
import { afterEach, describe, expect, it } from 'vitest'
import type { FakeAuthority } from '../../src/fake/fake-authority.js'
import { memoryStore } from '../../src/memory/index.js'
import type { TokenStore } from '../../src/store/index.js'
import {
  ALICE,
  ALICE_OLD,
  BOB,
  control,
  fakeOver,
  ROOT,
  rotate,
  selfStatus,
  snapshotOf,
  sqliteStore,
} from './support/data-fake.js'

// Every data write of the control plane (restore, reset, users, tokens) is all or nothing: one it
// refuses leaves the users, tokens, ids, families and known secrets exactly as they were.

const token = (fields: Record<string, unknown>) => ({
  user_id: 2,
  name: 'restored',
  scopes: ['api'],
  expires_at: '2027-01-01',
  ...fields,
})

/** The fake over the standard seed, with bob's token rotated through the API (a secret nobody gave). */
async function busyFake(options: Parameters<typeof fakeOver>[0] = {}) {
  const fake = await fakeOver(options)
  const minted = await rotate(fake, BOB)
  return { fake, minted: minted.token, before: await snapshotOf(fake) }
}

/** Everything the data was before is still there, and authenticates as it did. */
async function expectUnchanged(fake: FakeAuthority, before: unknown, minted: string) {
  expect(await snapshotOf(fake)).toEqual(before)
  expect(await selfStatus(fake, ROOT)).toBe(200)
  expect(await selfStatus(fake, ALICE)).toBe(200)
  expect(await selfStatus(fake, minted)).toBe(200)
  expect(await selfStatus(fake, ALICE_OLD)).toBe(401)
  expect(await selfStatus(fake, BOB)).toBe(401)
}

describe('PUT /__patkit/state refused: the data is as it was', () => {
  const users = [{ id: 2, username: 'alice' }]
  it.each([
    [
      'a previous_id naming the token itself',
      { users, tokens: [token({ id: 20, token: 'glpat-restore-self-01', previous_id: 20 })] },
      'tokens[0].previous_id',
      'token 20 is this token itself; a token cannot be rotated from itself',
    ],
    [
      'a previous_id naming a later token',
      {
        users,
        tokens: [
          token({ id: 20, token: 'glpat-restore-forward-01', previous_id: 21 }),
          token({ id: 21, token: 'glpat-restore-forward-02', revoked: true }),
        ],
      },
      'tokens[0].previous_id',
      "token 21 comes later in the seed (tokens[1]); a token's predecessor must come before it",
    ],
    [
      'a previous_id naming no token',
      { users, tokens: [token({ id: 20, token: 'glpat-restore-unknown-01', previous_id: 99 })] },
      'tokens[0].previous_id',
      'No token with id 99 (a token must come after the token it was rotated from)',
    ],
    [
      'a token of a user the body does not have',
      { users, tokens: [token({ id: 20, user_id: 7, token: 'glpat-restore-nobody-01' })] },
      'tokens[0].user_id',
      'No user with id 7',
    ],
    [
      'a token given by digest whose predecessor is unknown',
      { users, tokens: [token({ id: 20, token_digest: 'f'.repeat(64), previous_id: 19 })] },
      'tokens[0].previous_id',
      'No token with id 19 (a token must come after the token it was rotated from)',
    ],
  ])('%s: 400 invalid state', async (_what, body, path, message) => {
    const { fake, minted, before } = await busyFake()
    expect(await control(fake, 'PUT', '/state', body)).toEqual({
      status: 400,
      body: { error: 'invalid state', problems: [{ path, message }] },
    })
    await expectUnchanged(fake, before, minted)
  })

  it('every problem of the body is listed, not only the first', async () => {
    const { fake, minted, before } = await busyFake()
    const answer = await control(fake, 'PUT', '/state', {
      users,
      tokens: [
        token({ id: 20, user_id: 7, token: 'glpat-restore-many-01' }),
        token({ id: 21, token: 'glpat-restore-many-02', previous_id: 99 }),
      ],
    })
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({
      problems: [
        { path: 'tokens[0].user_id', message: 'No user with id 7' },
        { path: 'tokens[1].previous_id', message: expect.stringContaining('No token with id 99') },
      ],
    })
    await expectUnchanged(fake, before, minted)
  })

  it('a snapshot of the data restores it whole (the check refuses nothing valid)', async () => {
    const { fake, minted, before } = await busyFake()
    await control(fake, 'POST', '/users', { id: 4, username: 'carol' })
    expect(await control(fake, 'PUT', '/state', before)).toMatchObject({ status: 200 })
    await expectUnchanged(fake, before, minted)
  })
})

// A store that fails every write of a token, as a full disk would: the check cannot see it coming.
function failingStore(): TokenStore {
  const store = memoryStore()
  const full = (operation: string) =>
    errAsync({ type: 'store_failure', operation, cause: new Error('disk full') } as const)
  return { ...store, insert: () => full('insert'), importToken: () => full('importToken') }
}

describe('reset and restore into a store that fails halfway: the old data is put back', () => {
  it('POST /__patkit/reset answers 500 and keeps the data', async () => {
    let fresh: () => TokenStore = () => memoryStore()
    const { fake, minted, before } = await busyFake({ freshStore: () => fresh() })
    fresh = failingStore
    const answer = await control(fake, 'POST', '/reset')
    expect(answer).toMatchObject({ status: 500, body: { error: 'the seed no longer loads' } })
    await expectUnchanged(fake, before, minted)
  })

  it('PUT /__patkit/state answers 400 and keeps the data', async () => {
    let fresh: () => TokenStore = () => memoryStore()
    const { fake, minted, before } = await busyFake({ freshStore: () => fresh() })
    fresh = failingStore
    const answer = await control(fake, 'PUT', '/state', before)
    expect(answer).toMatchObject({
      status: 400,
      body: { problems: [{ message: expect.stringContaining('disk full') }] },
    })
    await expectUnchanged(fake, before, minted)
  })
})

describe('POST /__patkit/users: a batch is written whole or not at all', () => {
  it('a username another stored user has refuses the whole batch', async () => {
    const { fake, minted, before } = await busyFake()
    expect(
      await control(fake, 'POST', '/users', [
        { id: 4, username: 'carol' },
        { id: 5, username: 'ALICE' },
      ]),
    ).toEqual({
      status: 400,
      body: {
        error: 'invalid user',
        problems: [{ path: 'users[1].username', message: 'username "ALICE" already belongs to user 2' }],
      },
    })
    await expectUnchanged(fake, before, minted)
  })

  it('a username freed by an earlier entry of the batch may be taken', async () => {
    const { fake } = await busyFake()
    expect(
      await control(fake, 'POST', '/users', [
        { id: 3, username: 'robert' },
        { id: 5, username: 'bob' },
      ]),
    ).toMatchObject({ status: 201 })
    const { users } = await snapshotOf(fake)
    expect(users.filter((u) => u.id === 3 || u.id === 5).map((u) => u.username)).toEqual(['robert', 'bob'])
  })

  it('the other order would take a name still held: refused, nothing written', async () => {
    const { fake, minted, before } = await busyFake()
    const answer = await control(fake, 'POST', '/users', [
      { id: 5, username: 'bob' },
      { id: 3, username: 'robert' },
    ])
    expect(answer).toMatchObject({
      status: 400,
      body: {
        problems: [{ path: 'users[0].username', message: 'username "bob" already belongs to user 3' }],
      },
    })
    await expectUnchanged(fake, before, minted)
  })
})

describe('adding users and tokens together (FakeState.add): all or nothing', () => {
  it('a bad token keeps the users of the same write out', async () => {
    const { fake, minted, before } = await busyFake()
    const added = await fake.state.add({
      users: [{ id: 4, username: 'carol' }],
      tokens: [
        token({ user_id: 4, token: 'glpat-add-carol-00001' }),
        token({ id: 12, user_id: 4, token: 'glpat-add-carol-00002' }),
      ],
    })
    expect(added._unsafeUnwrapErr()).toEqual([
      { path: 'tokens[1].id', message: 'Token id 12 is taken by another token' },
    ])
    await expectUnchanged(fake, before, minted)
    expect(await selfStatus(fake, 'glpat-add-carol-00001')).toBe(401)
  })

  it('POST /__patkit/tokens refused writes nothing', async () => {
    const { fake, minted, before } = await busyFake()
    const answer = await control(fake, 'POST', '/tokens', token({ token: ALICE, id: 30 }))
    expect(answer).toEqual({
      status: 400,
      body: {
        error: 'invalid token',
        problems: [{ path: 'tokens[0].id', message: 'This secret is already stored as token 11' }],
      },
    })
    await expectUnchanged(fake, before, minted)
  })
})

describe('a store of the caller (SQLite)', () => {
  const open: (() => Promise<void>)[] = []
  afterEach(async () => {
    await Promise.all(open.splice(0).map((close) => close()))
  })

  it('over SQLite, a batch of users with a taken username writes none of them', async () => {
    const { store, close } = await sqliteStore()
    open.push(close)
    const { fake, minted, before } = await busyFake({ store, freshStore: undefined })
    const answer = await control(fake, 'POST', '/users', [
      { id: 4, username: 'carol' },
      { id: 5, username: 'Root' },
    ])
    expect(answer).toMatchObject({
      status: 400,
      body: {
        problems: [{ path: 'users[1].username', message: 'username "Root" already belongs to user 1' }],
      },
    })
    await expectUnchanged(fake, before, minted)
  })
})
