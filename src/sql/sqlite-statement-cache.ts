/**
 * The part of a better-sqlite3 `Database` the cache needs.
 *
 * @example
 * ```ts
 * import type { PreparingDatabase } from 'patkit/sql'
 * import Database from 'better-sqlite3'
 * const db: PreparingDatabase = new Database(':memory:')
 * ```
 */
export interface PreparingDatabase {
  prepare(sql: string): unknown
}

/**
 * Statement texts kept by default: patkit's own hot statements are a few dozen.
 *
 * @example
 * ```ts
 * import Database from 'better-sqlite3'
 * import { DEFAULT_STATEMENT_CACHE_SIZE, sqliteStatementCache } from 'patkit/sql'
 *
 * sqliteStatementCache(new Database(':memory:'), DEFAULT_STATEMENT_CACHE_SIZE)
 * ```
 */
export const DEFAULT_STATEMENT_CACHE_SIZE = 256

/**
 * Wraps a better-sqlite3 database so `prepare` returns the statement it prepared before for the same
 * SQL text, for Kysely's `SqliteDialect`. Kysely's SQLite driver prepares every statement on every
 * call, which costs SQLite about as much as running it (docs/benchmarks.md, target 5); hand-written
 * better-sqlite3 code prepares once. Safe because Kysely runs one query at a time per SQLite connection,
 * so a cached statement is never in use twice at once. At most `limit` texts are kept, the oldest
 * dropped first, so dynamically built SQL cannot grow it without bound.
 *
 * @example
 * ```ts
 * import Database from 'better-sqlite3'
 * import { Kysely, SqliteDialect } from 'kysely'
 * import { sqliteStatementCache, sqlStore } from 'patkit/sql'
 *
 * const db = new Kysely({ dialect: new SqliteDialect({ database: sqliteStatementCache(new Database('patkit.db')) }) })
 * const store = sqlStore(db)
 * ```
 */
export function sqliteStatementCache<D extends PreparingDatabase>(
  database: D,
  limit: number = DEFAULT_STATEMENT_CACHE_SIZE,
): D {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`limit must be a positive integer, got ${limit}`)
  const cache = new Map<string, unknown>()
  const prepare = (sql: string): unknown => {
    let statement = cache.get(sql)
    if (statement === undefined) {
      statement = database.prepare(sql)
      if (cache.size >= limit) {
        const oldest = cache.keys().next()
        if (oldest.done !== true) cache.delete(oldest.value)
      }
      cache.set(sql, statement)
    }
    return statement
  }
  return new Proxy(database, {
    get(target, property) {
      if (property === 'prepare') return prepare
      const value: unknown = Reflect.get(target, property, target)
      // Methods keep the real database as `this` (better-sqlite3 checks its receiver).
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value
    },
  })
}
