import type { Kysely, Migration } from 'kysely'

/**
 * Schema version 0005: `tokens.last_used_ips`, the last client IPs that used a token (GitLab's
 * `last_used_ips`, at most five), oldest first, separated by single spaces; `''` when none. At most
 * five IPv6 addresses of 45 characters and their separators fit in 255.
 *
 * MySQL and SQLite cannot roll DDL back, so the column is added only when missing: a run that stopped
 * after the `ALTER TABLE` but before recording the version simply runs again.
 *
 * @example
 * ```ts
 * import { lastUsedIps } from './0005-last-used-ips.js'
 *
 * const migration = lastUsedIps('patkit_')
 * ```
 */
export function lastUsedIps(prefix: string): Migration {
  return {
    async up(anyDb) {
      const db: Kysely<unknown> = anyDb
      const tables = await db.introspection.getTables()
      const tokens = tables.find((t) => t.name === `${prefix}tokens`)
      if (tokens?.columns.some((c) => c.name === 'last_used_ips') === true) return
      await db.schema
        .alterTable('tokens')
        .addColumn('last_used_ips', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .execute()
    },
    async down(anyDb) {
      const db: Kysely<unknown> = anyDb
      await db.schema.alterTable('tokens').dropColumn('last_used_ips').execute()
    },
  }
}
