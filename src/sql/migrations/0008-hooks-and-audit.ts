import { type Kysely, type Migration, sql } from 'kysely'
import type { SqlDialect } from '../dialect/sql-dialect.js'
import { addColumnOnce } from './add-column-once.js'
import { createIndexOnce, type IndexSpec } from './create-index-once.js'

/** The indexes of schema version 0008, and why each exists. */
export function hookIndexes(prefix: string): readonly IndexSpec[] {
  return [
    // A project's or group's hooks (listHooks, and the expiry notices looking for subscribers).
    { name: `${prefix}hooks_source_idx`, table: 'hooks', columns: ['source_type', 'source_id'] },
    // A hook's logs newest first, one page at a time; deleted with their hook.
    { name: `${prefix}hook_logs_hook_id_idx`, table: 'hook_logs', columns: ['hook_id', 'id'] },
    // An entity's audit events newest first (GitLab's user, project and group audit event lists).
    {
      name: `${prefix}audit_events_entity_idx`,
      table: 'audit_events',
      columns: ['entity_type', 'entity_id', 'id'],
    },
    // The instance-wide list's created_after/created_before range.
    { name: `${prefix}audit_events_created_at_idx`, table: 'audit_events', columns: ['created_at'] },
  ]
}

/**
 * Schema version 0008: GitLab's project and group webhooks (`hooks`, the event flags as a JSON object,
 * the secret token only sealed), their delivery attempts (`hook_logs`, by `hook_id`), the expiry
 * notices given (`token_notices`, one row per token and interval: its primary key makes claiming a
 * notice an insert-if-absent), and audit events (`audit_events`, the details as JSON text). `groups`
 * and `projects` gain `extended_expiry_webhooks`, false by default. No foreign keys, as in 0001.
 * Idempotent, as every migration here.
 */
export function hooksAndAudit(dialect: SqlDialect, prefix: string): Migration {
  const { types, tableOptions } = dialect
  // MySQL's text holds 64 KiB; a request or response body may be larger (PostgreSQL's and SQLite's
  // text has no such bound).
  const body = dialect.name === 'mysql' ? sql`mediumtext` : sql`text`
  return {
    async up(anyDb) {
      const db: Kysely<unknown> = anyDb
      let hooks = db.schema
        .createTable('hooks')
        .ifNotExists()
        .addColumn('id', types.id)
        .addColumn('source_type', 'varchar(16)', (c) => c.notNull())
        .addColumn('source_id', 'bigint', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('name', 'varchar(255)')
        .addColumn('description', 'text')
        .addColumn('sealed_token', 'text')
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('enable_ssl_verification', types.boolean, (c) => c.notNull())
        .addColumn('created_at', types.instant, (c) => c.notNull())
      if (tableOptions !== null) hooks = hooks.modifyEnd(tableOptions)
      await hooks.execute()
      let logs = db.schema
        .createTable('hook_logs')
        .ifNotExists()
        .addColumn('id', types.id)
        .addColumn('hook_id', 'bigint', (c) => c.notNull())
        .addColumn('trigger', 'varchar(255)', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('request_headers', 'text', (c) => c.notNull())
        .addColumn('request_data', body, (c) => c.notNull())
        .addColumn('response_headers', 'text', (c) => c.notNull())
        .addColumn('response_body', body, (c) => c.notNull())
        .addColumn('response_status', 'varchar(64)', (c) => c.notNull())
        .addColumn('execution_duration', 'double precision', (c) => c.notNull())
        .addColumn('internal_error_message', 'text')
        .addColumn('created_at', types.instant, (c) => c.notNull())
      if (tableOptions !== null) logs = logs.modifyEnd(tableOptions)
      await logs.execute()
      let notices = db.schema
        .createTable('token_notices')
        .ifNotExists()
        .addColumn('token_id', 'bigint', (c) => c.notNull())
        .addColumn('interval_days', 'integer', (c) => c.notNull())
        .addColumn('sent_at', types.instant, (c) => c.notNull())
        .addPrimaryKeyConstraint(`${prefix}token_notices_pkey`, ['token_id', 'interval_days'])
      if (tableOptions !== null) notices = notices.modifyEnd(tableOptions)
      await notices.execute()
      let audit = db.schema
        .createTable('audit_events')
        .ifNotExists()
        .addColumn('id', types.id)
        .addColumn('author_id', 'bigint', (c) => c.notNull())
        .addColumn('entity_type', 'varchar(16)', (c) => c.notNull())
        .addColumn('entity_id', 'bigint', (c) => c.notNull())
        .addColumn('event_name', 'varchar(255)', (c) => c.notNull())
        .addColumn('details', 'text', (c) => c.notNull())
        .addColumn('created_at', types.instant, (c) => c.notNull())
      if (tableOptions !== null) audit = audit.modifyEnd(tableOptions)
      await audit.execute()
      for (const index of hookIndexes(prefix)) await createIndexOnce(db, dialect, prefix, index)
      for (const table of ['groups', 'projects']) {
        await addColumnOnce(db, dialect, prefix, table, {
          name: 'extended_expiry_webhooks',
          type: types.boolean,
          flag: true,
        })
      }
    },
    async down(anyDb) {
      const db: Kysely<unknown> = anyDb
      for (const table of ['audit_events', 'token_notices', 'hook_logs', 'hooks']) {
        await db.schema.dropTable(table).ifExists().execute()
      }
      for (const table of ['groups', 'projects']) {
        await db.schema.alterTable(table).dropColumn('extended_expiry_webhooks').execute()
      }
    },
  }
}
