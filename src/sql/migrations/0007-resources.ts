import type { Kysely, Migration } from 'kysely'
import type { UserIdType } from '../../domain/user-id.js'
import type { SqlDialect } from '../dialect/sql-dialect.js'
import { userIdColumnType } from './0006-user-id-type.js'
import { addColumnOnce } from './add-column-once.js'
import { createIndexOnce, type IndexSpec } from './create-index-once.js'

/** The indexes of schema version 0007, and why each exists. */
export function resourceIndexes(prefix: string): readonly IndexSpec[] {
  return [
    // findGroup/findProject by full path in any case; a full path is unique per kind regardless of case.
    {
      name: `${prefix}groups_full_path_lower_key`,
      table: 'groups',
      columns: ['full_path_lower'],
      unique: true,
    },
    {
      name: `${prefix}projects_full_path_lower_key`,
      table: 'projects',
      columns: ['full_path_lower'],
      unique: true,
    },
    // One membership per user and resource; a resource's members (and its bots' tokens) by prefix.
    {
      name: `${prefix}members_source_user_key`,
      table: 'members',
      columns: ['source_type', 'source_id', 'user_id'],
      unique: true,
    },
    // A user's memberships.
    { name: `${prefix}members_user_id_idx`, table: 'members', columns: ['user_id'] },
  ]
}

/**
 * Schema version 0007: GitLab's projects and groups, their direct members, and the users the API
 * creates (bots of resource access tokens, service accounts). `groups` and `projects` hold integer
 * ids given by the caller; `full_path_lower` (folded in JavaScript, as `username_lower`) carries the
 * case-insensitive unique key. `members` has one row per (source_type, source_id, user_id), its
 * `user_id` of the users id column's type. `users` gains `name`, `bot`, `bot_namespace_type`,
 * `bot_namespace_id`, `service_account` and `provisioned_by_group_id`, nullable or false by default,
 * so every existing user reads as before. Idempotent, as every migration here.
 */
export function resources(
  dialect: SqlDialect,
  prefix: string,
  userIdType: UserIdType = 'integer',
): Migration {
  const { types, tableOptions } = dialect
  return {
    async up(anyDb) {
      const db: Kysely<unknown> = anyDb
      for (const kind of ['groups', 'projects'] as const) {
        let table = db.schema
          .createTable(kind)
          .ifNotExists()
          .addColumn('id', 'bigint', (c) => c.primaryKey())
          .addColumn('path', 'varchar(255)', (c) => c.notNull())
          .addColumn('full_path', 'varchar(512)', (c) => c.notNull())
          .addColumn('full_path_lower', 'varchar(512)', (c) => c.notNull())
          .addColumn('name', 'varchar(255)', (c) => c.notNull())
          .addColumn(kind === 'groups' ? 'parent_id' : 'group_id', 'bigint')
          .addColumn('visibility', 'varchar(16)', (c) => c.notNull())
        if (tableOptions !== null) table = table.modifyEnd(tableOptions)
        await table.execute()
      }
      let members = db.schema
        .createTable('members')
        .ifNotExists()
        .addColumn('source_type', 'varchar(16)', (c) => c.notNull())
        .addColumn('source_id', 'bigint', (c) => c.notNull())
        .addColumn('user_id', userIdColumnType(userIdType), (c) => c.notNull())
        .addColumn('access_level', 'integer', (c) => c.notNull())
      if (tableOptions !== null) members = members.modifyEnd(tableOptions)
      await members.execute()
      for (const index of resourceIndexes(prefix)) await createIndexOnce(db, dialect, prefix, index)
      const columns = [
        { name: 'name', type: 'varchar(255)' },
        { name: 'bot', type: types.boolean, flag: true },
        { name: 'bot_namespace_type', type: 'varchar(16)' },
        { name: 'bot_namespace_id', type: 'bigint' },
        { name: 'service_account', type: types.boolean, flag: true },
        { name: 'provisioned_by_group_id', type: 'bigint' },
      ] as const
      for (const column of columns) await addColumnOnce(db, dialect, prefix, 'users', column)
    },
    async down(anyDb) {
      const db: Kysely<unknown> = anyDb
      await db.schema.dropTable('members').ifExists().execute()
      await db.schema.dropTable('projects').ifExists().execute()
      await db.schema.dropTable('groups').ifExists().execute()
      for (const column of [
        'name',
        'bot',
        'bot_namespace_type',
        'bot_namespace_id',
        'service_account',
        'provisioned_by_group_id',
      ]) {
        await db.schema.alterTable('users').dropColumn(column).execute()
      }
    },
  }
}
