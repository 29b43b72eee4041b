import type { Kysely } from 'kysely'
import { afterAll } from 'vitest'
import type { UserIdType } from '../../../src/domain/user-id.js'
import { migrate, type SqlStoreOptions, sqlStore } from '../../../src/sql/index.js'
import type { TokenStore } from '../../../src/store/token-store.js'
import { describeStoreConformance } from '../../../src/testing/index.js'
import { dropTables, emptyTables } from './databases.js'

/** A migrated store on `db` under `prefix`; a migration failure fails the calling test with its cause. */
export async function migratedStore(
  db: Kysely<unknown>,
  prefix: string,
  userIdType: UserIdType = 'integer',
  options: SqlStoreOptions = {},
): Promise<TokenStore> {
  const migrated = await migrate(db, { tablePrefix: prefix, userIdType })
  if (migrated.isErr()) throw migrated.error.cause
  return sqlStore(db, { ...options, tablePrefix: prefix, userIdType })
}

/**
 * The store conformance suite on one database: migrated once, emptied before every test; its string
 * user id tests on tables of their own (`<prefix>s_`, created with `userIdType: 'string'`).
 */
export function describeSqlConformance(
  name: string,
  db: Kysely<unknown>,
  prefix: string,
  options: SqlStoreOptions = {},
): void {
  const stringPrefix = `${prefix}s_`
  afterAll(() => dropTables(db, stringPrefix))
  describeStoreConformance({
    name,
    create: () => migratedStore(db, prefix, 'integer', options),
    reset: () => emptyTables(db, prefix),
    stringIds: {
      create: () => migratedStore(db, stringPrefix, 'string', options),
      reset: () => emptyTables(db, stringPrefix),
    },
  })
}
