import type { Kysely, Migration } from 'kysely'
import type { UserIdType } from '../../domain/user-id.js'
import type { SqlDialect } from '../dialect/sql-dialect.js'
import { userIdColumnType } from './0006-user-id-type.js'
import { createIndexOnce, type IndexSpec } from './create-index-once.js'

/** The indexes of the first schema version, and why each exists. */
export function indexes(prefix: string): readonly IndexSpec[] {
  const on = (table: string, columns: readonly string[], suffix: string, unique = false): IndexSpec => ({
    name: `${prefix}${table}_${columns.join('_')}_${suffix}`,
    table,
    columns,
    unique,
  })
  return [
    // Authentication looks every request's token up by digest; unique, so two secrets never collide.
    on('tokens', ['digest'], 'key', true),
    // A token has at most one successor: the backstop that keeps concurrent rotations from forking.
    on('tokens', ['previous_id'], 'key', true),
    // A user's list, in the default id order.
    on('tokens', ['user_id', 'id'], 'idx'),
    // Reuse detection loads a whole family.
    on('tokens', ['family_id'], 'idx'),
    // Range filters and sorts of the list.
    on('tokens', ['created_at'], 'idx'),
    on('tokens', ['last_used_at'], 'idx'),
    on('tokens', ['expires_at'], 'idx'),
    // findUser by username in any case; usernames are unique regardless of case.
    on('users', ['username_lower'], 'key', true),
  ]
}

/**
 * Schema version 0001: the users and tokens tables and their indexes. Table names are unprefixed here;
 * the prefix plugin on the migrating instance renames them. The user id columns are `bigint`, or
 * `varchar(255)` with `userIdType: 'string'` (recorded by version 0006).
 */
export function tokensAndUsers(
  dialect: SqlDialect,
  prefix: string,
  userIdType: UserIdType = 'integer',
): Migration {
  const { types, tableOptions } = dialect
  const userId = userIdColumnType(userIdType)
  return {
    async up(anyDb) {
      const db: Kysely<unknown> = anyDb
      let users = db.schema
        .createTable('users')
        .ifNotExists()
        .addColumn('id', userId, (c) => c.primaryKey())
        .addColumn('username', 'varchar(255)', (c) => c.notNull())
        .addColumn('username_lower', 'varchar(255)', (c) => c.notNull())
        .addColumn('admin', types.boolean, (c) => c.notNull().defaultTo(dialect.bool(false)))
        .addColumn('blocked', types.boolean, (c) => c.notNull().defaultTo(dialect.bool(false)))
      if (tableOptions !== null) users = users.modifyEnd(tableOptions)
      await users.execute()

      let tokens = db.schema
        .createTable('tokens')
        .ifNotExists()
        .addColumn('id', types.id)
        .addColumn('user_id', userId, (c) => c.notNull())
        .addColumn('name', 'varchar(255)', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('created_at', types.instant, (c) => c.notNull())
        .addColumn('last_used_at', types.instant)
        .addColumn('expires_at', types.day)
        .addColumn('revoked', types.boolean, (c) => c.notNull().defaultTo(dialect.bool(false)))
        .addColumn('impersonation', types.boolean, (c) => c.notNull().defaultTo(dialect.bool(false)))
        .addColumn('previous_id', 'bigint')
        .addColumn('family_id', 'bigint', (c) => c.notNull())
        .addColumn('digest', 'varchar(128)', (c) => c.notNull())
      if (tableOptions !== null) tokens = tokens.modifyEnd(tableOptions)
      await tokens.execute()

      for (const index of indexes(prefix)) await createIndexOnce(db, dialect, prefix, index)
    },
    async down(anyDb) {
      const db: Kysely<unknown> = anyDb
      await db.schema.dropTable('tokens').ifExists().execute()
      await db.schema.dropTable('users').ifExists().execute()
    },
  }
}
