import { type Kysely, type Migration, sql } from 'kysely'
import type { UserIdType } from '../../domain/user-id.js'

/** The settings row recording the kind of user id the tables hold. */
export const USER_ID_TYPE_SETTING = 'user_id_type'

/**
 * The SQL type of the user id columns (`users.id`, `tokens.user_id`) for a `userIdType`: GitLab's
 * `bigint`, or `varchar(255)` for string ids (on MySQL in the tables' binary collation, so ids are
 * case-sensitive as everywhere else).
 */
export function userIdColumnType(userIdType: UserIdType): 'bigint' | 'varchar(255)' {
  return userIdType === 'string' ? 'varchar(255)' : 'bigint'
}

const TEXTUAL = /char|text/i

/**
 * Schema version 0006: records the kind of user id in `settings` (`user_id_type`). Migration 0001
 * creates the user id columns of the kind asked for; a database whose tables 0001 created before
 * this version has `bigint` ids, and asking it for string ids fails here with the reason instead of
 * recording a kind its columns do not hold. `migrate` compares the recorded kind with its option on
 * every later run.
 */
export function userIdTypeMigration(prefix: string, userIdType: UserIdType): Migration {
  return {
    async up(anyDb) {
      const db: Kysely<unknown> = anyDb
      const tables = await db.introspection.getTables()
      const users = tables.find((table) => table.name === `${prefix}users`)
      const id = users?.columns.find((column) => column.name === 'id')
      const held: UserIdType | null =
        id === undefined ? null : TEXTUAL.test(id.dataType) ? 'string' : 'integer'
      if (held !== null && held !== userIdType) {
        throw new Error(
          `patkit/sql: the ${prefix}users table holds ${held} user ids, but userIdType is ${userIdType}; ` +
            'the kind is chosen when migrate first creates the tables (see docs/storage.md)',
        )
      }
      // Idempotent, as every migration here (MySQL and SQLite cannot roll DDL back): a run that
      // stopped after recording runs again; `migrate` compares a recorded kind with the option.
      const settings = sql.table(`${prefix}settings`)
      const recorded = await sql<{
        value: string
      }>`select value from ${settings} where name = ${USER_ID_TYPE_SETTING}`.execute(db)
      if (recorded.rows.length === 0) {
        await sql`insert into ${settings} (name, value) values (${USER_ID_TYPE_SETTING}, ${userIdType})`.execute(
          db,
        )
      }
    },
    async down(anyDb) {
      const db: Kysely<unknown> = anyDb
      await sql`delete from ${sql.table(`${prefix}settings`)} where name = ${USER_ID_TYPE_SETTING}`.execute(
        db,
      )
    },
  }
}
