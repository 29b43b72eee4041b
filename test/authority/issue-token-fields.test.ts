import { describe, expect, it } from 'vitest'
import { createAuthority } from '../../src/authority/create-authority.js'
import { manualClock } from '../../src/domain/clock.js'
import { seededRandom } from '../../src/domain/random.js'
import { memoryStore } from '../../src/memory/index.js'
import type { TokenStore } from '../../src/store/token-store.js'
import { migratedStore } from '../sql/support/conformance.js'
import { type DatabaseTarget, pglite, sqliteMemory, uniquePrefix } from '../sql/support/databases.js'
import { describeDatabase } from '../sql/support/describe-database.js'
import { ADMIN, T0 } from '../support/authority-fixtures.js'

// Issue 10, one rule per fact: issueToken (seeds, fixtures) checked names without GitLab's 255-character
// limit, so a 300-character name was stored on the memory store (and SQLite, which does not enforce
// VARCHAR lengths) and failed as a store_failure on PostgreSQL. It now runs createToken's own rule, so
// every store answers alike, with the domain's validation error and before the store is asked.

const LONG = 'n'.repeat(300)

function fieldRules(open: () => Promise<TokenStore>): void {
  // The SQL stores are migrated once per database: a seed per authority keeps the secrets apart.
  let seed = 0
  async function authority() {
    const store = await open()
    const authority = createAuthority({
      store,
      pepper: 'test-pepper',
      clock: manualClock(T0),
      random: seededRandom(++seed),
    })
    ;(await authority.users.put(ADMIN))._unsafeUnwrap()
    return authority
  }

  it('a 300-character name is refused with the domain validation error, not a store_failure', async () => {
    const issued = await (await authority()).issueToken({ userId: ADMIN.id, name: LONG, scopes: ['api'] })
    expect(issued._unsafeUnwrapErr()).toEqual({
      type: 'validation_failed',
      message: 'Name is too long (maximum is 255 characters)',
    })
  })

  it('a 300-character description is refused the same way', async () => {
    const issued = await (await authority()).issueToken({
      userId: ADMIN.id,
      name: 'ci',
      scopes: ['api'],
      description: LONG,
    })
    expect(issued._unsafeUnwrapErr()).toEqual({
      type: 'validation_failed',
      message: 'Description is too long (maximum is 255 characters)',
    })
  })

  it('a 255-character name (the limit) is issued', async () => {
    const issued = await (await authority()).issueToken({
      userId: ADMIN.id,
      name: 'n'.repeat(255),
      scopes: ['api'],
    })
    expect(issued._unsafeUnwrap().token.name).toHaveLength(255)
  })
}

describe('issueToken on the memory store', () => {
  fieldRules(async () => memoryStore())
})

const prefix = uniquePrefix('issuefields')
const targets: readonly DatabaseTarget[] = [sqliteMemory, pglite]
for (const target of targets) {
  await describeDatabase(target, prefix, (db) => {
    let migrated: Promise<TokenStore> | null = null
    fieldRules(() => {
      migrated ??= migratedStore(db, prefix)
      return migrated
    })
  })
}
