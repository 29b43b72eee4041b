import type { Kysely } from 'kysely'
import { migrate, sqlStore } from '../../../src/sql/index.js'
import type { TokenStore } from '../../../src/store/token-store.js'
import { describeStoreConformance } from '../../../src/testing/index.js'
import { emptyTables } from './databases.js'

/** A migrated store on `db` under `prefix`; a migration failure fails the calling test with its cause. */
export async function migratedStore(db: Kysely<unknown>, prefix: string): Promise<TokenStore> {
  const migrated = await migrate(db, { tablePrefix: prefix })
  if (migrated.isErr()) throw migrated.error.cause
  return sqlStore(db, { tablePrefix: prefix })
}

/** The store conformance suite on one database: migrated once, emptied before every test. */
export function describeSqlConformance(name: string, db: Kysely<unknown>, prefix: string): void {
  describeStoreConformance({
    name,
    create: () => migratedStore(db, prefix),
    reset: () => emptyTables(db, prefix),
  })
}
