import { afterEach, describe, expect, it } from 'vitest'
import { type Seed, validateSeed } from '../../src/fake/seed/seed-schema.js'
import {
  ALICE,
  ALICE_OLD,
  ALICE_SPARE,
  BOB,
  control,
  fakeOver,
  SEED,
  selfStatus,
  snapshotOf,
  sqliteStore,
  startFake,
} from './support/data-fake.js'

// A family (a token and the tokens rotated from it) has one active token at a time and forks
// nowhere: data given in the seed format (a seed file, a restore, POST /__patkit/tokens) whose
// previous_id would fork one is refused, naming the token and the field, before any store sees it.

const users = [
  { id: 2, username: 'alice' },
  { id: 3, username: 'bob' },
]
const token = (id: number, fields: Record<string, unknown> = {}) => ({
  id,
  user_id: 2,
  name: `token-${id}`,
  scopes: ['api' as const],
  token: `glpat-family-secret-${id}`,
  expires_at: '2027-01-01',
  ...fields,
})

describe('the seed format refuses a previous_id that would fork a family', () => {
  it.each([
    [
      'an active predecessor',
      [token(10), token(11, { previous_id: 10 })],
      [
        {
          path: 'tokens[1].previous_id',
          message: "token 10 is still active; a token's predecessor must be revoked",
        },
      ],
    ],
    [
      "another user's predecessor",
      [token(10, { revoked: true }), token(11, { user_id: 3, previous_id: 10 })],
      [
        {
          path: 'tokens[1].previous_id',
          message: "token 10 belongs to user 2, not user 3; a token's predecessor must be the same user's",
        },
      ],
    ],
    [
      'the token itself',
      [token(10, { previous_id: 10 })],
      [
        {
          path: 'tokens[0].previous_id',
          message: 'token 10 is this token itself; a token cannot be rotated from itself',
        },
      ],
    ],
    [
      'a token listed later (a forward reference)',
      [token(10, { previous_id: 11 }), token(11, { revoked: true })],
      [
        {
          path: 'tokens[0].previous_id',
          message: "token 11 comes later in the seed (tokens[1]); a token's predecessor must come before it",
        },
      ],
    ],
    [
      'a second successor of one token',
      [token(10, { revoked: true }), token(11, { previous_id: 10 }), token(12, { previous_id: 10 })],
      [
        {
          path: 'tokens[2].previous_id',
          message: 'token 10 already has a successor (tokens[1]); a token is rotated at most once',
        },
      ],
    ],
    [
      'a cycle (each names the other)',
      [token(10, { revoked: true, previous_id: 11 }), token(11, { revoked: true, previous_id: 10 })],
      [
        {
          path: 'tokens[0].previous_id',
          message: "token 11 comes later in the seed (tokens[1]); a token's predecessor must come before it",
        },
      ],
    ],
  ])('%s', (_what, tokens, problems) => {
    expect(validateSeed({ users, tokens })).toEqual({ success: false, problems })
  })

  it('accepts a family as rotations leave it: every predecessor revoked, listed before, the same user', () => {
    const tokens = [
      token(10, { revoked: true }),
      token(11, { revoked: true, previous_id: 10 }),
      token(12, { previous_id: 11 }),
      token(5, { previous_id: null }),
    ]
    expect(validateSeed({ users, tokens }).success).toBe(true)
  })
})

describe('the loader refuses forks against the stored tokens too', () => {
  it('PUT /__patkit/state with an active predecessor: 400, the data as it was', async () => {
    const fake = await fakeOver()
    const before = await snapshotOf(fake)
    expect(
      await control(fake, 'PUT', '/state', { users, tokens: [token(10), token(11, { previous_id: 10 })] }),
    ).toEqual({
      status: 400,
      body: {
        error: 'invalid state',
        problems: [
          {
            path: 'tokens[1].previous_id',
            message: "token 10 is still active; a token's predecessor must be revoked",
          },
        ],
      },
    })
    expect(await snapshotOf(fake)).toEqual(before)
  })

  it.each([
    [
      'a stored token still active',
      { user_id: 3, previous_id: 12 },
      "token 12 is still active; a token's predecessor must be revoked",
    ],
    [
      "another user's stored token",
      { user_id: 3, previous_id: 14 },
      "token 14 belongs to user 2, not user 3; a token's predecessor must be the same user's",
    ],
    [
      'a stored token rotated already',
      { previous_id: 10 },
      'token 10 already has a successor (token 11); a token is rotated at most once',
    ],
    [
      'no token',
      { previous_id: 99 },
      'No token with id 99 (a token must come after the token it was rotated from)',
    ],
  ])('POST /__patkit/tokens naming %s: 400, nothing written', async (_what, fields, message) => {
    const fake = await fakeOver()
    const before = await snapshotOf(fake)
    const body = { user_id: 2, name: 'forked', scopes: ['api'], token: 'glpat-family-forked-01', ...fields }
    expect(await control(fake, 'POST', '/tokens', body)).toEqual({
      status: 400,
      body: { error: 'invalid token', problems: [{ path: 'tokens[0].previous_id', message }] },
    })
    expect(await snapshotOf(fake)).toEqual(before)
    expect(await selfStatus(fake, 'glpat-family-forked-01')).toBe(401)
    expect(await selfStatus(fake, BOB)).toBe(200)
  })

  it('POST /__patkit/tokens continuing a revoked token of the same user joins its family', async () => {
    const fake = await fakeOver()
    const body = {
      user_id: 2,
      name: 'next',
      scopes: ['api'],
      token: 'glpat-family-next-0001',
      previous_id: 14,
    }
    const answer = await control(fake, 'POST', '/tokens', body)
    expect(answer).toMatchObject({ status: 201 })
    const id = (answer.body as { id: number }).id
    const stored = (await fake.store.findById(id))._unsafeUnwrap()
    expect(stored).toMatchObject({ previousId: 14, familyId: 14, revoked: false })
    expect(await selfStatus(fake, 'glpat-family-next-0001')).toBe(200)
    expect(await selfStatus(fake, ALICE_SPARE)).toBe(401)
  })
})

describe('a snapshot restores whatever the ids of a family', () => {
  it('a successor with a lower id than its predecessor is written after it', async () => {
    const seed: Seed = { users, tokens: [token(20, { revoked: true }), token(5, { previous_id: 20 })] }
    const fake = await fakeOver({ seed })
    const snapshot = await snapshotOf(fake)
    expect(snapshot.tokens.map((t) => t.id)).toEqual([20, 5])
    expect(await control(fake, 'PUT', '/state', snapshot)).toEqual({
      status: 200,
      body: { users: 2, tokens: 2, groups: 0, projects: 0 },
    })
    expect(await snapshotOf(fake)).toEqual(snapshot)
    expect(await selfStatus(fake, 'glpat-family-secret-5')).toBe(200)
  })
})

describe('over SQLite (a database the seed is added to)', () => {
  const open: (() => Promise<void>)[] = []
  afterEach(async () => {
    await Promise.all(open.splice(0).map((close) => close()))
  })
  const database = async () => {
    const opened = await sqliteStore()
    open.push(opened.close)
    return opened.store
  }

  it('a seed naming a stored active token as predecessor is refused at start; the store keeps one family', async () => {
    const store = await database()
    await fakeOver({ store, freshStore: undefined })
    const seed: Seed = {
      tokens: [
        { user_id: 3, name: 'forked', scopes: ['api'], token: 'glpat-family-sql-fork-1', previous_id: 12 },
      ],
    }
    expect(await startFake({ store, freshStore: undefined, seed })).toEqual({
      ok: false,
      problems: [
        {
          path: 'tokens[0].previous_id',
          message: "token 12 is still active; a token's predecessor must be revoked",
        },
      ],
    })
    expect((await store.findSuccessor?.(12))?._unsafeUnwrap()).toBeNull()
    const again = await fakeOver({ store, freshStore: undefined, seed: SEED })
    expect(await selfStatus(again, 'glpat-family-sql-fork-1')).toBe(401)
    expect(await selfStatus(again, BOB)).toBe(200)
  })

  it('restarting with the same seed over the data it left is harmless, a rotation since included', async () => {
    const store = await database()
    const first = await fakeOver({ store, freshStore: undefined })
    const rotated = await control(first, 'POST', '/tokens', {
      user_id: 2,
      name: 'spare-next',
      scopes: ['api'],
      token: 'glpat-family-sql-next-01',
      previous_id: 14,
    })
    expect(rotated.status).toBe(201)
    const second = await fakeOver({ store, freshStore: undefined })
    expect(second.seeded.skipped).toEqual([0, 1, 2, 3, 4])
    expect(await selfStatus(second, ALICE)).toBe(200)
    expect(await selfStatus(second, ALICE_OLD)).toBe(401)
  })

  it("POST /__patkit/tokens with another user's or an active predecessor: 400, nothing stored", async () => {
    const fake = await fakeOver({ store: await database(), freshStore: undefined })
    const before = await snapshotOf(fake)
    for (const [fields, message] of [
      [
        { user_id: 3, previous_id: 14 },
        "token 14 belongs to user 2, not user 3; a token's predecessor must be the same user's",
      ],
      [{ user_id: 3, previous_id: 12 }, "token 12 is still active; a token's predecessor must be revoked"],
      [
        { user_id: 2, previous_id: 10 },
        'token 10 already has a successor (token 11); a token is rotated at most once',
      ],
    ] as const) {
      const body = { name: 'forked', scopes: ['api'], token: 'glpat-family-sql-fork-2', ...fields }
      expect(await control(fake, 'POST', '/tokens', body)).toEqual({
        status: 400,
        body: { error: 'invalid token', problems: [{ path: 'tokens[0].previous_id', message }] },
      })
    }
    expect(await snapshotOf(fake)).toEqual(before)
    expect(await selfStatus(fake, 'glpat-family-sql-fork-2')).toBe(401)
  })
})
