import type { Kysely as KyselyDb } from 'kysely'
import { err, ok, type Result } from 'neverthrow'
import type { InvalidationChannel } from '../cache/invalidation.js'
import { memoryStore } from '../memory/memory-store.js'
import type { TokenStore } from '../store/token-store.js'
import { type DatabaseUrl, describeDatabase } from './database-url.js'

/**
 * The store `patkit serve` runs on, and how to release it at shutdown.
 */
export interface OpenedStore {
  readonly store: TokenStore
  readonly description: string
  /** Whether reset and restore swap in a fresh store (the in-memory one); a SQL store replaces its rows instead. */
  readonly replaceable: boolean
  close(): Promise<void>
}

function reason(cause: unknown): string {
  if (cause instanceof AggregateError && cause.errors.length > 0) return cause.errors.map(reason).join('; ')
  return cause instanceof Error ? cause.message || cause.name : String(cause)
}

/** The CLI is an application: a dropped database connection is reported, never fatal. */
function reportConnectionError(error: Error): void {
  process.stderr.write(`patkit serve: database connection error: ${error.message}\n`)
}

const DRIVERS = { sqlite: 'better-sqlite3', postgres: 'pg', mysql: 'mysql2' } as const

/** How long a SQLite statement waits for another process's write lock before SQLITE_BUSY (retried). */
const SQLITE_BUSY_TIMEOUT_MS = 5000

// WAL lets readers go on while another process writes. Switching needs a moment alone with the file:
// when a second process starting at the same time holds it, the first one's switch (or the file's
// journal mode, already WAL) stands, and the rollback journal works too, only with less concurrency.
function enableWal(file: { pragma(source: string): unknown }): void {
  try {
    file.pragma('journal_mode = WAL')
  } catch {}
}

/**
 * Opens the SQL store of a `--database` URL and brings its tables up to date. kysely, the driver and
 * patkit's SQL store are imported only here, so the in-memory path needs none of them installed.
 */
async function openSql(
  database: DatabaseUrl,
  tablePrefix: string | undefined,
  pepper: string,
  cache: 'default' | 'strict' | undefined,
): Promise<Result<OpenedStore, string>> {
  const driver = DRIVERS[database.dialect]
  let modules: [typeof import('kysely'), typeof import('../sql/index.js')]
  try {
    modules = await Promise.all([import('kysely'), import('../sql/index.js')])
  } catch (cause) {
    return err(`the SQL store is not available: install kysely and ${driver} (${reason(cause)})`)
  }
  const [{ Kysely, MysqlDialect, PostgresDialect, SqliteDialect }, { migrate, sqlStore, verifyPepper }] =
    modules
  let db: KyselyDb<unknown>
  // SQLite's authenticate lookup runs on the database directly (`sqliteDatabase`, docs/storage.md).
  let direct: { sqliteDatabase: import('../sql/index.js').DirectSqliteDatabase } | Record<string, never> = {}
  try {
    if (database.dialect === 'sqlite') {
      const { default: Database } = await import('better-sqlite3')
      const file = new Database(database.file, { timeout: SQLITE_BUSY_TIMEOUT_MS })
      enableWal(file)
      db = new Kysely({ dialect: new SqliteDialect({ database: file }) })
      direct = { sqliteDatabase: file }
    } else if (database.dialect === 'postgres') {
      const { default: pg } = await import('pg')
      const pool = new pg.Pool({ connectionString: database.url, connectionTimeoutMillis: 10_000 })
      // pg emits a lost connection as an 'error' event on the pool or on a checked-out client; with no
      // listener that event crashes the process. The query in flight still fails, as a store_failure.
      pool.on('error', reportConnectionError)
      pool.on('connect', (client) => client.on('error', reportConnectionError))
      db = new Kysely({ dialect: new PostgresDialect({ pool }) })
    } else {
      const { createPool } = await import('mysql2')
      const pool = createPool({ uri: database.url, connectTimeout: 10_000 })
      pool.on('error', reportConnectionError)
      db = new Kysely({ dialect: new MysqlDialect({ pool }) })
    }
  } catch (cause) {
    return err(`cannot open ${describeDatabase(database)} with ${driver}: ${reason(cause)}`)
  }
  const sqlOptions = tablePrefix === undefined ? {} : { tablePrefix }
  const migrated = await migrate(db, sqlOptions)
  if (migrated.isErr()) {
    await db.destroy().catch(() => {})
    return err(`cannot prepare ${describeDatabase(database)}: ${reason(migrated.error.cause)}`)
  }
  const checked = await verifyPepper(db, pepper, sqlOptions)
  if (checked.isErr()) {
    await db.destroy().catch(() => {})
    return err(
      checked.error.type === 'pepper_mismatch'
        ? `${describeDatabase(database)} was written with a different pepper: none of its tokens would authenticate with this one. Start with the pepper it was created with (--pepper, --pepper-file or PATKIT_PEPPER)`
        : `cannot read the pepper fingerprint of ${describeDatabase(database)}: ${reason(checked.error.cause)}`,
    )
  }
  const store = sqlStore(db, { ...sqlOptions, ...direct })
  const plain: OpenedStore = {
    store,
    description: describeDatabase(database),
    replaceable: false,
    close: () => db.destroy(),
  }
  return ok(cache === undefined ? plain : await withCache(plain, database, db, sqlOptions, cache))
}

/**
 * The verification cache of `--cache`: LISTEN/NOTIFY on PostgreSQL (on one more connection of its
 * own), the change log elsewhere. Every `patkit serve --cache` on one database and table prefix shares
 * the channel, named after the prefix.
 */
async function withCache(
  plain: OpenedStore,
  database: DatabaseUrl,
  db: KyselyDb<unknown>,
  sqlOptions: { readonly tablePrefix?: string },
  mode: 'default' | 'strict',
): Promise<OpenedStore> {
  const [{ cachedStore }, { pollingInvalidation, postgresInvalidation }] = await Promise.all([
    import('../cache/index.js'),
    import('../sql/index.js'),
  ])
  let invalidation: InvalidationChannel
  if (database.dialect === 'postgres') {
    const { default: pg } = await import('pg')
    invalidation = postgresInvalidation({
      db,
      channel: `${sqlOptions.tablePrefix ?? 'patkit_'}cache`,
      listen: () => new pg.Client({ connectionString: database.url, connectionTimeoutMillis: 10_000 }),
      onError: (cause) => reportConnectionError(cause instanceof Error ? cause : new Error(String(cause))),
    })
  } else {
    invalidation = pollingInvalidation(db, sqlOptions)
  }
  const cached = cachedStore(plain.store, { invalidation, strict: mode === 'strict' })
  return {
    store: cached,
    description: `${plain.description}, ${mode === 'strict' ? 'strict ' : ''}cache`,
    replaceable: false,
    close: async () => {
      await cached.close()
      await invalidation.close()
      await plain.close()
    },
  }
}

/**
 * Opens the store of `patkit serve`: a fresh in-memory store without `--database`, else the SQL store
 * of the URL, migrated. The error is a sentence for the user.
 */
export async function openStore(
  database: DatabaseUrl | undefined,
  pepper: string,
  tablePrefix?: string,
  cache?: 'default' | 'strict',
): Promise<Result<OpenedStore, string>> {
  if (database === undefined) {
    return ok({
      store: memoryStore(),
      description: 'memory',
      replaceable: true,
      close: () => Promise.resolve(),
    })
  }
  return openSql(database, tablePrefix, pepper, cache)
}
