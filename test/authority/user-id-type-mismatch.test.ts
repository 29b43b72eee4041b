import { describe, expect, it } from 'vitest'
import { cachedStore } from '../../src/cache/index.js'
import type { UserIdType } from '../../src/domain/user-id.js'
import { swappableStore } from '../../src/fake/swappable-store.js'
import { AuthorityConfigError, createAuthority } from '../../src/index.js'
import { memoryStore } from '../../src/memory/index.js'
import { sqlStore } from '../../src/sql/index.js'
import type { TokenStore } from '../../src/store/index.js'
import { sqliteMemory } from '../sql/support/databases.js'

// Every store patkit builds, of either kind: each declares its kind, and a wrapper forwards it.
const STORES: readonly [string, (kind: UserIdType) => TokenStore][] = [
  ['memoryStore', (kind) => memoryStore({ userIdType: kind })],
  ['sqlStore', (kind) => sqlStore(sqliteMemory.open(), { userIdType: kind })],
  ['cachedStore over memoryStore', (kind) => cachedStore(memoryStore({ userIdType: kind }))],
  ['swappableStore over memoryStore', (kind) => swappableStore(memoryStore({ userIdType: kind }))],
]

describe('issue 20: a store and an authority that disagree on the kind of user id fail at construction', () => {
  it('memoryStore() with userIdType string is refused with the fix, not at the first putUser', () => {
    const create = () => createAuthority({ store: memoryStore(), pepper: 'p', userIdType: 'string' })
    expect(create).toThrow(AuthorityConfigError)
    expect(create).toThrow(
      "invalid option userIdType: 'string', but the store holds integer user ids; give the store the same kind: memoryStore({ userIdType: 'string' }), or sqlStore(db, { userIdType: 'string' }) on tables migrate(db, { userIdType: 'string' }) created",
    )
  })

  it('a string store under the default integer authority is refused too, naming the default', () => {
    expect(() => createAuthority({ store: memoryStore({ userIdType: 'string' }), pepper: 'p' })).toThrow(
      new AuthorityConfigError(
        "invalid option userIdType: 'integer' (the default), but the store holds string user ids; pass userIdType: 'string' to createAuthority as well, or give it a store of integer ids",
      ),
    )
  })

  it.each(STORES)('%s declares its kind; the other kind is refused, the same accepted', (_, make) => {
    for (const kind of ['integer', 'string'] as const) {
      const store = make(kind)
      expect(store.userIdType).toBe(kind)
      expect(createAuthority({ store, pepper: 'p', userIdType: kind }).settings.userIdType).toBe(kind)
      const other = kind === 'integer' ? 'string' : 'integer'
      expect(() => createAuthority({ store, pepper: 'p', userIdType: other })).toThrow(
        `but the store holds ${kind} user ids`,
      )
    }
  })

  it('memoryStore refuses an unknown kind where it is configured', () => {
    expect(() => memoryStore({ userIdType: 'uuid' as UserIdType })).toThrow(
      new TypeError(`memoryStore: userIdType "uuid" is not 'integer' or 'string'`),
    )
  })
})
