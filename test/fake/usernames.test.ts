import { describe, expect, it } from 'vitest'
import type { FakeAuthority } from '../../src/fake/fake-authority.js'
import type { Seed } from '../../src/fake/seed/seed-schema.js'
import { ALICE, control, fakeOver, SEED, snapshotOf } from './support/data-fake.js'

// Issue 28: service account usernames were stored as given (" bob", "root\u200b", "x/y", 300
// characters: a 500 on PostgreSQL), after which the fake's own snapshot no longer restored. GitLab's
// rules apply wherever a username enters: Users::ServiceAccounts::CreateService answers
// `error(user.errors.full_messages.to_sentence, :bad_request)` (ee/app/services/users/service_accounts/
// create_service.rb, gitlabhq EE copy), i.e. 400 "400 Bad request - Username ...".

const OCI =
  "Username can only include non-accented letters, digits, '_', '-' and '.'. It must not start with '-', '_', or '.', nor end with '-', '_', '.', '.git', or '.atom'."
const NAMESPACE =
  "Username can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'."

const ADMIN = 'glpat-usernames-admin-mode-01'

const seed: Seed = {
  ...SEED,
  tokens: [
    ...(SEED.tokens ?? []),
    {
      id: 30,
      user_id: 1,
      name: 'admin',
      scopes: ['api', 'admin_mode'],
      token: ADMIN,
      expires_at: '2027-01-01',
    },
  ],
  groups: [{ id: 1, path: 'acme', name: 'Acme', members: [{ user_id: 2, access_level: 50 }] }],
}

async function post(fake: FakeAuthority, path: string, secret: string, body: unknown) {
  const response = await fake.handler(
    new Request(`http://127.0.0.1/api/v4${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'PRIVATE-TOKEN': secret },
      body: JSON.stringify(body),
    }),
  )
  return { status: response.status, json: (await response.json()) as unknown }
}

describe('service account usernames follow GitLab’s rules', () => {
  it.each([
    [' bob', `${OCI} and ${NAMESPACE}`],
    ['root\u200b', `${OCI} and ${NAMESPACE}`],
    ['x/y', `${OCI} and ${NAMESPACE}`],
    ['<img src=x>', `${OCI} and ${NAMESPACE}`],
    ['a'.repeat(300), 'Username is too long (maximum is 255 characters)'],
    ['Admin', 'Username Admin is a reserved name'],
  ])('POST /groups/1/service_accounts with %j is 400, and nothing is stored', async (username, message) => {
    const fake = await fakeOver({ seed })
    const before = (await snapshotOf(fake)).users
    expect(await post(fake, '/groups/1/service_accounts', ALICE, { username })).toEqual({
      status: 400,
      json: { message: `400 Bad request - ${message}` },
    })
    expect((await snapshotOf(fake)).users).toEqual(before)
  })

  it('the instance route refuses the same', async () => {
    const fake = await fakeOver({ seed })
    expect(await post(fake, '/service_accounts', ADMIN, { username: 'x/y' })).toEqual({
      status: 400,
      json: { message: `400 Bad request - ${OCI} and ${NAMESPACE}` },
    })
    expect((await snapshotOf(fake)).users.map((u) => u.username)).toEqual(['root', 'alice', 'bob'])
    expect((await post(fake, '/service_accounts', ADMIN, { username: 'x-y' })).status).toBe(201)
  })

  it('what the routes let in, the snapshot restores', async () => {
    const fake = await fakeOver({ seed })
    for (const username of ['svc.one', 'Svc-Two', 'svc_3']) {
      expect((await post(fake, '/groups/1/service_accounts', ALICE, { username })).status).toBe(201)
    }
    expect((await post(fake, '/groups/1/service_accounts', ALICE, {})).status).toBe(201)
    const snapshot = await snapshotOf(fake)
    expect((await control(fake, 'PUT', '/state', snapshot)).status).toBe(200)
    expect(await snapshotOf(fake)).toEqual(snapshot)
  })
})

describe('the control API’s users and the seed follow them too', () => {
  it('POST /__patkit/users refuses a username GitLab would refuse, with its message', async () => {
    const fake = await fakeOver({ seed })
    const before = await snapshotOf(fake)
    const answer = await control(fake, 'POST', '/users', [
      { id: 5, username: 'carol' },
      { id: 6, username: ' bob' },
    ])
    expect(answer.status).toBe(400)
    expect(JSON.stringify(answer.body)).toContain(`${OCI} and ${NAMESPACE}`)
    expect(JSON.stringify(answer.body)).toContain('users[1].username')
    expect(await snapshotOf(fake)).toEqual(before)
  })

  it('a seed with a reserved or padded username does not start', async () => {
    await expect(fakeOver({ seed: { users: [{ id: 1, username: 'api' }], tokens: [] } })).rejects.toThrow(
      'Username api is a reserved name',
    )
    await expect(fakeOver({ seed: { users: [{ id: 1, username: 'alice ' }], tokens: [] } })).rejects.toThrow(
      NAMESPACE,
    )
  })
})
