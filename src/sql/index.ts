/**
 * patkit/sql: the token store on your own Kysely instance, for PostgreSQL (and PGlite), MySQL/MariaDB
 * and SQLite, with its versioned migrations. See docs/storage.md.
 * @packageDocumentation
 */
export type { SqlDialectName } from './dialect/sql-dialect.js'
export { type MigrationReport, migrate } from './migrate.js'
export { DEFAULT_TABLE_PREFIX, type SqlStoreOptions } from './options.js'
export { type PepperCheck, type PepperMismatch, pepperFingerprint, verifyPepper } from './pepper-check.js'
export { type PollingInvalidationOptions, pollingInvalidation } from './polling-invalidation.js'
export {
  type ListenClient,
  type PostgresInvalidationOptions,
  postgresInvalidation,
} from './postgres-invalidation.js'
export { sqlStore } from './sql-store.js'
export type { DirectSqliteDatabase } from './sqlite-direct.js'
export {
  DEFAULT_STATEMENT_CACHE_SIZE,
  type PreparingDatabase,
  sqliteStatementCache,
} from './sqlite-statement-cache.js'
