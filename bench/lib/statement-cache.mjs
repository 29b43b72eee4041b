/**
 * A better-sqlite3 handle whose `prepare` returns the statement it prepared before for the same SQL
 * (up to `limit` texts, oldest dropped first). Kysely's SQLite driver prepares every statement on every
 * call; hand-written better-sqlite3 code prepares once. This is what a host can hand to Kysely's
 * `SqliteDialect` to close that gap: Kysely runs one query at a time per connection, so a cached
 * statement is never in use twice at once. Benchmark code, to measure that configuration.
 * @template {{ prepare(sql: string): unknown }} D
 * @param {D} database
 * @param {number} [limit]
 * @returns {D}
 */
export function withStatementCache(database, limit = 256) {
  /** @type {Map<string, unknown>} */
  const cache = new Map()
  return new Proxy(database, {
    get(target, property) {
      if (property === 'prepare') {
        return (/** @type {string} */ sql) => {
          let statement = cache.get(sql)
          if (statement === undefined) {
            statement = target.prepare(sql)
            if (cache.size >= limit) cache.delete(/** @type {string} */ (cache.keys().next().value))
            cache.set(sql, statement)
          }
          return statement
        }
      }
      const value = Reflect.get(target, property, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}
