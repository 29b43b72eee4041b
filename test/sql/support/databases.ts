import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import Database from 'better-sqlite3'
import { CompiledQuery, Kysely, MysqlDialect, PostgresDialect, SqliteDialect, sql } from 'kysely'
import { PGliteDialect } from 'kysely-pglite-dialect'
import { createPool } from 'mysql2'
import pg from 'pg'
import { sqliteStatementCache } from '../../../src/sql/index.js'
import { pgliteOptions } from './pglite-template.js'

/**
 * One database the SQL tests can run on: how to open it, and a name for titles and skip messages.
 * Server URLs come from PATKIT_POSTGRES_URL / PATKIT_MYSQL_URL, defaulting to the local test servers.
 */
export interface DatabaseTarget {
  readonly name: string
  readonly server: boolean
  open(): Kysely<unknown>
  /** Releases what `open` created besides the Kysely instance (a temp directory). */
  dispose?(): void
}

export const POSTGRES_URL = process.env['PATKIT_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test'
export const MYSQL_URL = process.env['PATKIT_MYSQL_URL'] ?? 'mysql://root@127.0.0.1:3306/test'

/** Connections per server pool: the concurrency tests need at least 8 to race for real. */
export const POOL_SIZE = 10

export const sqliteMemory: DatabaseTarget = {
  name: 'SQLite (:memory:)',
  server: false,
  open: () => new Kysely({ dialect: new SqliteDialect({ database: new Database(':memory:') }) }),
}

/** SQLite in memory through patkit's statement cache (what docs/storage.md recommends for SQLite). */
export const sqliteCached: DatabaseTarget = {
  name: 'SQLite (:memory:, statement cache)',
  server: false,
  open: () =>
    new Kysely({ dialect: new SqliteDialect({ database: sqliteStatementCache(new Database(':memory:')) }) }),
}

/** SQLite in a file of a fresh temp directory, removed by `dispose`. */
export function sqliteFile(): DatabaseTarget {
  const dir = mkdtempSync(join(tmpdir(), 'patkit-sql-'))
  return {
    name: 'SQLite (file)',
    server: false,
    open: () => new Kysely({ dialect: new SqliteDialect({ database: new Database(join(dir, 'store.db')) }) }),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  }
}

export const pglite: DatabaseTarget = {
  name: 'PGlite',
  server: false,
  open: () => new Kysely({ dialect: new PGliteDialect(new PGlite(pgliteOptions())) }),
}

/**
 * A pg pool as docs/storage.md recommends: pg emits a lost connection as an 'error' event on the
 * client, and a checked-out client has no listener (the pool only listens to idle ones), so without
 * this a connection dying mid-query crashes the process even though the query itself rejects.
 */
function pgPool(config: pg.PoolConfig): pg.Pool {
  const pool = new pg.Pool({
    connectionString: POSTGRES_URL,
    max: POOL_SIZE,
    connectionTimeoutMillis: 3000,
    ...config,
  })
  pool.on('connect', (client) => {
    client.on('error', () => {})
  })
  pool.on('error', () => {})
  return pool
}

export const postgres: DatabaseTarget = {
  name: `PostgreSQL (${POSTGRES_URL})`,
  server: true,
  open: () => new Kysely({ dialect: new PostgresDialect({ pool: pgPool({}) }) }),
}

/** PostgreSQL with every transaction SERIALIZABLE: rotations race into serialization failures. */
export const postgresSerializable: DatabaseTarget = {
  name: `PostgreSQL, serializable (${POSTGRES_URL})`,
  server: true,
  open: () =>
    new Kysely({
      dialect: new PostgresDialect({
        pool: pgPool({ options: '-c default_transaction_isolation=serializable' }),
      }),
    }),
}

function mysqlTarget(name: string, isolation: string | null): DatabaseTarget {
  return {
    name: `${name} (${MYSQL_URL})`,
    server: true,
    open: () =>
      new Kysely({
        dialect: new MysqlDialect({
          pool: createPool({ uri: MYSQL_URL, connectionLimit: POOL_SIZE, connectTimeout: 3000 }),
          ...(isolation === null
            ? {}
            : {
                onCreateConnection: async (connection) => {
                  await connection.executeQuery(
                    CompiledQuery.raw(`set session transaction isolation level ${isolation}`),
                  )
                },
              }),
        }),
      }),
  }
}

export const mariadb: DatabaseTarget = mysqlTarget('MariaDB/MySQL', null)

/** MariaDB/MySQL with every transaction SERIALIZABLE (plain reads take shared locks). */
export const mariadbSerializable: DatabaseTarget = mysqlTarget('MariaDB/MySQL, serializable', 'serializable')

/** An open database, or why it could not be reached (with the closed instance, for registering skips). */
export type Connection =
  | { readonly ok: true; readonly db: Kysely<unknown>; readonly target: DatabaseTarget }
  | {
      readonly ok: false
      readonly error: unknown
      readonly target: DatabaseTarget
      readonly db: Kysely<unknown>
    }

/** Opens a target and proves it answers (`select 1`), without ever rejecting. */
export async function connect(target: DatabaseTarget): Promise<Connection> {
  const db = target.open()
  try {
    await sql`select 1`.execute(db)
    return { ok: true, db, target }
  } catch (error) {
    await db.destroy().catch(() => {})
    target.dispose?.()
    return { ok: false, error, target, db }
  }
}

/**
 * A table prefix unique to this test process and file, so test files (and concurrent runs on one
 * server) never share tables. The process id keeps two runs apart; the tag, two files of one run.
 */
export function uniquePrefix(tag: string): string {
  return `t${process.pid}_${tag}_`
}

/** Every table the store and its migrations create under a prefix. */
export function storeTables(prefix: string): string[] {
  return [
    'tokens',
    'users',
    'settings',
    'rotation_receipts',
    'cache_changes',
    'groups',
    'projects',
    'members',
    'hooks',
    'hook_logs',
    'token_notices',
    'audit_events',
    'migrations',
    'migrations_lock',
  ].map((t) => prefix + t)
}

/** Drops every table of a prefix (after a test file). */
export async function dropTables(db: Kysely<unknown>, prefix: string): Promise<void> {
  for (const table of storeTables(prefix)) await sql`drop table if exists ${sql.table(table)}`.execute(db)
}

/** Empties the store's tables (between tests). Ids go on from where they were, as in production. */
export async function emptyTables(db: Kysely<unknown>, prefix: string): Promise<void> {
  await sql`delete from ${sql.table(`${prefix}tokens`)}`.execute(db)
  await sql`delete from ${sql.table(`${prefix}users`)}`.execute(db)
  await sql`delete from ${sql.table(`${prefix}settings`)}`.execute(db)
  await sql`delete from ${sql.table(`${prefix}rotation_receipts`)}`.execute(db)
  await sql`delete from ${sql.table(`${prefix}members`)}`.execute(db)
  await sql`delete from ${sql.table(`${prefix}groups`)}`.execute(db)
  await sql`delete from ${sql.table(`${prefix}projects`)}`.execute(db)
  for (const table of ['hooks', 'hook_logs', 'token_notices', 'audit_events']) {
    await sql`delete from ${sql.table(`${prefix}${table}`)}`.execute(db)
  }
}

/** Why a database is unreachable, in one line. */
export function reason(error: unknown): string {
  if (error instanceof AggregateError) return error.errors.map(reason).join('; ') || error.name
  return error instanceof Error ? error.message || error.name : String(error)
}
