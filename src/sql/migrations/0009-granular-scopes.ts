import { type Kysely, type Migration, sql } from 'kysely'
import type { SqlDialect } from '../dialect/sql-dialect.js'
import { addColumnOnce } from './add-column-once.js'

/**
 * Schema version 0009: `tokens.granular_scopes`, a fine-grained token's scopes as a JSON array of
 * `{access, permissions, project_id, group_id}` (GitLab keeps them in a table of their own,
 * `personal_access_token_granular_scopes`; patkit never queries inside them, so one text column
 * suffices). `null` is a legacy token. Added only when missing, as every column migration is.
 */
export function granularScopes(dialect: SqlDialect, prefix: string): Migration {
  return {
    async up(anyDb) {
      const db: Kysely<unknown> = anyDb
      await addColumnOnce(db, dialect, prefix, 'tokens', { name: 'granular_scopes', type: sql`text` })
    },
    async down(anyDb) {
      const db: Kysely<unknown> = anyDb
      await db.schema.alterTable('tokens').dropColumn('granular_scopes').execute()
    },
  }
}
