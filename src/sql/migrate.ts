import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely'
import { ResultAsync } from 'neverthrow'
import type { StoreFailure } from '../domain/errors.js'
import type { UserIdType } from '../domain/user-id.js'
import type { SqlDialect } from './dialect/sql-dialect.js'
import { tokensAndUsers } from './migrations/0001-tokens-and-users.js'
import { settings } from './migrations/0002-settings.js'
import { rotationReceipts } from './migrations/0003-rotation-receipts.js'
import { cacheChanges } from './migrations/0004-cache-changes.js'
import { lastUsedIps } from './migrations/0005-last-used-ips.js'
import { USER_ID_TYPE_SETTING, userIdTypeMigration } from './migrations/0006-user-id-type.js'
import { resources } from './migrations/0007-resources.js'
import { hooksAndAudit } from './migrations/0008-hooks-and-audit.js'
import { granularScopes } from './migrations/0009-granular-scopes.js'
import { resolveOptions, type SqlContext, type SqlStoreOptions } from './options.js'
import { retrying, toStoreFailure } from './store-failure.js'

/**
 * What one `migrate` call did.
 *
 * @example
 * ```ts
 * import type { MigrationReport } from 'patkit/sql'
 * const first: MigrationReport = { applied: ['0001_tokens_and_users', '0002_settings', '0003_rotation_receipts', '0004_cache_changes', '0005_last_used_ips', '0006_user_id_type', '0007_resources', '0008_hooks_and_audit', '0009_granular_scopes'], version: '0009_granular_scopes' }
 * const again: MigrationReport = { applied: [], version: '0009_granular_scopes' }
 * ```
 */
export interface MigrationReport {
  /** The migrations this call applied, oldest first; empty when the schema was already current. */
  readonly applied: readonly string[]
  /** The schema version now in place: the name of the newest migration. */
  readonly version: string
}

/**
 * The store's migrations by version name; names sort in the order they apply. Append only.
 */
function schemaMigrations(
  dialect: SqlDialect,
  prefix: string,
  userIdType: UserIdType = 'integer',
): Readonly<Record<string, Migration>> {
  return {
    '0001_tokens_and_users': tokensAndUsers(dialect, prefix, userIdType),
    '0002_settings': settings(dialect),
    '0003_rotation_receipts': rotationReceipts(dialect, prefix),
    '0004_cache_changes': cacheChanges(dialect, prefix),
    '0005_last_used_ips': lastUsedIps(dialect, prefix),
    '0006_user_id_type': userIdTypeMigration(prefix, userIdType),
    '0007_resources': resources(dialect, prefix, userIdType),
    '0008_hooks_and_audit': hooksAndAudit(dialect, prefix),
    '0009_granular_scopes': granularScopes(dialect, prefix),
  }
}

/**
 * Brings the store's tables to the current schema version. Kysely's `Migrator` does the bookkeeping:
 * applied versions are recorded in `<prefix>migrations` (and a lock row in `<prefix>migrations_lock`),
 * concurrent `migrate` calls take a lock (an advisory lock on PostgreSQL, `GET_LOCK` on MySQL, the lock
 * table on SQLite), and a version already applied is skipped, so running `migrate` again is a no-op.
 * On PostgreSQL each run is one transaction; MySQL and SQLite cannot roll DDL back, so every statement
 * of a migration is idempotent and a run that stopped half-way simply runs again.
 *
 * @throws {TypeError} for a malformed `tablePrefix` or an unrecognized dialect (see `sqlStore`).
 * @example
 * ```ts
 * import { migrate } from 'patkit/sql'
 * const report = await migrate(db, { tablePrefix: 'patkit_' })
 * if (report.isErr()) throw report.error.cause
 * ```
 */
export function migrate<DB>(
  db: Kysely<DB>,
  options: SqlStoreOptions = {},
): ResultAsync<MigrationReport, StoreFailure> {
  const context = resolveOptions(db, options)
  const migrations = schemaMigrations(context.dialect, context.prefix, context.userIdType)
  const provider: MigrationProvider = { getMigrations: () => Promise.resolve({ ...migrations }) }
  const migrator = new Migrator({
    db: context.db,
    provider,
    migrationTableName: `${context.prefix}migrations`,
    migrationLockTableName: `${context.prefix}migrations_lock`,
  })
  const run = async (): Promise<MigrationReport> => {
    // SQLite has no migration lock across processes (Kysely's lock is per connection): a second
    // process starting at the same moment loses the write lock with SQLITE_BUSY, or finds the version
    // recorded by the first, and its next attempt finds the versions applied. Other dialects lock, and a lost race is rolled back, so a retry is safe.
    // A unique violation on the versions table means the other process recorded the version first.
    // Kysely's Migrator lists every table of the schema, with its columns, to find its own: a table of
    // another prefix (another application, another test file) dropped during that listing fails it
    // with PostgreSQL's undefined_table or undefined_column, which say nothing about this store's
    // tables, so that run is tried again (a bounded number of times: a real error still surfaces).
    const lostRace = (error: unknown) =>
      context.dialect.isRetryable(error) ||
      context.dialect.isUniqueViolation(error) ||
      droppedMeanwhile(error)
    const { error, results = [] } = await retrying(async () => {
      const outcome = await migrator.migrateToLatest()
      if (outcome.error !== undefined && lostRace(outcome.error)) throw outcome.error
      return outcome
    }, lostRace)
    if (error !== undefined) throw error
    await checkUserIdType(context)
    const names = Object.keys(migrations).sort()
    return {
      applied: results.filter((r) => r.status === 'Success').map((r) => r.migrationName),
      version: names[names.length - 1] ?? '',
    }
  }
  return ResultAsync.fromPromise(run(), toStoreFailure('migrate'))
}

// PostgreSQL's undefined_table (42P01) and undefined_column (42703), as a listing of the catalog meets
// a table dropped meanwhile.
export function droppedMeanwhile(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('code' in error)) return false
  return error.code === '42P01' || error.code === '42703'
}

/**
 * A database migrated for one kind of user id and now asked for the other (its columns and rows hold
 * the first): refused with the reason instead of a store that misreads every id.
 */
async function checkUserIdType(context: SqlContext): Promise<void> {
  const recorded = await context.db
    .selectFrom('settings')
    .select('settings.value')
    .where('settings.name', '=', USER_ID_TYPE_SETTING)
    .executeTakeFirst()
  if (recorded !== undefined && recorded.value !== context.userIdType) {
    throw new Error(
      `patkit/sql: the ${context.prefix} tables hold ${String(recorded.value)} user ids, but userIdType is ${context.userIdType}`,
    )
  }
}
