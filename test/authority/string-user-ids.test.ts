import { okAsync } from 'neverthrow'
import { describe, expect, it } from 'vitest'
import { manualClock } from '../../src/domain/clock.js'
import { seededRandom } from '../../src/domain/random.js'
import { checkRoutableSecret } from '../../src/domain/routable-token.js'
import type { UserIdType } from '../../src/domain/user-id.js'
import { AuthorityConfigError, type AuthorityEvent, createAuthority, type User } from '../../src/index.js'
import { memoryStore } from '../../src/memory/index.js'
import { migrate, sqlStore } from '../../src/sql/index.js'
import type { TokenStore } from '../../src/store/index.js'
import { sqliteMemory } from '../sql/support/databases.js'
import { T0 } from '../support/authority-fixtures.js'

const ADMIN: User = {
  id: '6f1c2d3e-0000-4000-8000-00000000000a',
  username: 'root',
  admin: true,
  blocked: false,
}
const ALICE: User = {
  id: '6f1c2d3e-0000-4000-8000-0000000000a1',
  username: 'alice',
  admin: false,
  blocked: false,
}
// An id that is also another user's username, and a user whose id is a string of digits.
const CAROL_ID = 'alice-the-id'
const CAROL: User = { id: CAROL_ID, username: 'carol', admin: false, blocked: false }
const DIGITS: User = { id: '42', username: 'digits', admin: false, blocked: false }
const BLOCKED: User = { id: 'blocked-1', username: 'mallory', admin: false, blocked: true }

async function sqliteStringStore(): Promise<TokenStore> {
  const db = sqliteMemory.open()
  const migrated = await migrate(db, { tablePrefix: 'sid_', userIdType: 'string' })
  if (migrated.isErr()) throw migrated.error.cause
  return sqlStore(db, { tablePrefix: 'sid_', userIdType: 'string' })
}

const STORES: readonly [string, () => Promise<TokenStore>][] = [
  ['memory', async () => memoryStore({ userIdType: 'string' })],
  ['SQLite', sqliteStringStore],
]

async function stringWorld(createStore: () => Promise<TokenStore>) {
  const events: AuthorityEvent[] = []
  const authority = createAuthority({
    store: await createStore(),
    pepper: 'test-pepper',
    clock: manualClock(T0),
    random: seededRandom(5),
    userIdType: 'string',
    onEvent: (e) => events.push(e),
  })
  for (const user of [ADMIN, ALICE, CAROL, DIGITS, BLOCKED]) (await authority.users.put(user))._unsafeUnwrap()
  return { authority, events }
}

describe.each(STORES)('issue 13: an authority with string user ids, on %s', (_, createStore) => {
  it('issues, authenticates, lists, rotates and revokes tokens of string-id users', async () => {
    const { authority, events } = await stringWorld(createStore)
    expect(authority.settings.userIdType).toBe('string')
    const issued = (
      await authority.issueToken({ userId: ALICE.id, name: 'ci', scopes: ['api'] })
    )._unsafeUnwrap()
    expect(issued.token.userId).toBe(ALICE.id)
    // The routable payload has no `u:` for a string id, and the secret is a valid routable token.
    expect(checkRoutableSecret(issued.secret, 'glpat-')).toBe('valid')
    const principal = (await authority.authenticate(issued.secret))._unsafeUnwrap()
    expect(principal.user).toEqual(ALICE)

    const listed = (await authority.list(principal))._unsafeUnwrap()
    expect(listed.items.map((t) => t.userId)).toEqual([ALICE.id])
    const rotated = (await authority.rotate(principal, issued.token.id))._unsafeUnwrap()
    expect(rotated.token.userId).toBe(ALICE.id)
    expect(events.at(-1)).toMatchObject({ type: 'rotated', actorUserId: ALICE.id })
    const next = (await authority.authenticate(rotated.secret))._unsafeUnwrap()
    ;(await authority.revoke(next, 'self'))._unsafeUnwrap()
    expect((await authority.authenticate(rotated.secret))._unsafeUnwrapErr().type).toBe('token_revoked')
  })

  it('finds users by string id exactly: a number, a username or a blocked user is no session', async () => {
    const { authority } = await stringWorld(createStore)
    expect((await authority.asUser(ALICE.id))._unsafeUnwrap().user).toEqual(ALICE)
    expect((await authority.asUser('42'))._unsafeUnwrap().user).toEqual(DIGITS)
    for (const ref of [42, 'alice', 'ALICE-THE-ID', '']) {
      expect((await authority.asUser(ref))._unsafeUnwrapErr(), String(ref)).toEqual({
        type: 'not_found',
        entity: 'user',
      })
    }
    expect((await authority.asUser(BLOCKED.id))._unsafeUnwrapErr().type).toBe('forbidden')
    expect(
      (await authority.issueToken({ userId: 42, name: 'x', scopes: ['api'] }))._unsafeUnwrapErr(),
    ).toEqual({
      type: 'not_found',
      entity: 'user',
    })
  })

  it('an administrator creates for a string id, lists by id (the id wins over a username) or by username', async () => {
    const { authority, events } = await stringWorld(createStore)
    // A session is never an administrator: the administrator authenticates with a token.
    const adminToken = (
      await authority.issueToken({ userId: ADMIN.id, name: 'admin', scopes: ['api'] })
    )._unsafeUnwrap()
    const admin = (await authority.authenticate(adminToken.secret))._unsafeUnwrap()
    const forCarol = (
      await authority.create(admin, CAROL.id, { name: 'carol', scopes: ['api'], expiresAt: '2026-04-01' })
    )._unsafeUnwrap()
    expect(forCarol.token.userId).toBe(CAROL.id)
    expect(events.at(-1)).toMatchObject({ type: 'created', actorUserId: ADMIN.id })
    const forAlice = (
      await authority.issueToken({ userId: ALICE.id, name: 'a', scopes: ['api'] })
    )._unsafeUnwrap()
    const ids = async (userRef: string) =>
      (await authority.list(admin, { userRef }))._unsafeUnwrap().items.map((t) => t.id)
    // 'alice-the-id' is CAROL's id: the id wins; 'alice' is ALICE's username.
    expect(await ids(CAROL_ID)).toEqual([forCarol.token.id])
    expect(await ids('alice')).toEqual([forAlice.token.id])
    expect((await authority.list(admin, { userRef: 'nobody' }))._unsafeUnwrapErr()).toEqual({
      type: 'not_found',
      entity: 'user',
    })
    expect((await authority.users.find(admin, DIGITS.id))._unsafeUnwrap()).toEqual(DIGITS)
    expect((await authority.users.find(admin, 42))._unsafeUnwrapErr()).toEqual({
      type: 'not_found',
      entity: 'user',
    })
  })

  it('sudo names a user by string id, or by username when no user has that id', async () => {
    const { authority } = await stringWorld(createStore)
    const issued = (
      await authority.issueToken({ userId: ADMIN.id, name: 'sudo', scopes: ['api', 'sudo'] })
    )._unsafeUnwrap()
    const admin = (await authority.authenticate(issued.secret))._unsafeUnwrap()
    expect((await authority.requests.sudo(admin, CAROL_ID))._unsafeUnwrap().user).toEqual(CAROL)
    expect((await authority.requests.sudo(admin, 'alice'))._unsafeUnwrap().user).toEqual(ALICE)
    expect((await authority.requests.sudo(admin, '42'))._unsafeUnwrap().user).toEqual(DIGITS)
    expect((await authority.requests.sudo(admin, 'nobody'))._unsafeUnwrapErr().type).toBe('not_found')
  })

  it("'self' as create's target is always the caller", async () => {
    const { authority } = await stringWorld(createStore)
    const session = (await authority.asUser(ALICE.id))._unsafeUnwrap()
    const own = (
      await authority.create(session, 'self', {
        name: 'mine',
        scopes: ['self_rotate'],
        expiresAt: '2026-04-01',
      })
    )._unsafeUnwrap()
    expect(own.token.userId).toBe(ALICE.id)
  })
})

describe('issue 13: userIdType at start-up and on integer authorities', () => {
  it('string ids need a directory with findUserById; an unknown kind is refused', () => {
    const users = { findUser: () => okAsync(null) }
    expect(() =>
      createAuthority({
        store: memoryStore({ userIdType: 'string' }),
        pepper: 'p',
        userIdType: 'string',
        users,
      }),
    ).toThrow(
      new AuthorityConfigError(
        "invalid option userIdType: 'string' needs a user directory with findUserById (the users option, or the store)",
      ),
    )
    expect(() =>
      createAuthority({ store: memoryStore(), pepper: 'p', userIdType: 'uuid' as UserIdType }),
    ).toThrow('invalid option userIdType: Invalid option: expected one of "integer"|"string"')
  })

  it('an integer authority (the default) finds no user by a string id, even one of digits', async () => {
    const authority = createAuthority({ store: memoryStore(), pepper: 'p', clock: manualClock(T0) })
    expect(authority.settings.userIdType).toBe('integer')
    ;(await authority.users.put({ id: 2, username: 'alice', admin: false, blocked: false }))._unsafeUnwrap()
    expect((await authority.asUser(2))._unsafeUnwrap().user.id).toBe(2)
    for (const ref of ['2', 'alice']) {
      expect((await authority.asUser(ref))._unsafeUnwrapErr(), ref).toEqual({
        type: 'not_found',
        entity: 'user',
      })
      expect(
        (await authority.issueToken({ userId: ref, name: 'x', scopes: ['api'] }))._unsafeUnwrapErr(),
      ).toEqual({ type: 'not_found', entity: 'user' })
    }
  })
})
