import { isUserIdOf, type UserId, type UserIdType } from '../domain/user-id.js'
import type { User } from '../store/user.js'
import type { SqlContext } from './options.js'
import { retrying } from './store-failure.js'
import { decodeBoolean, decodeUserId } from './token-row.js'
import { writeTransaction } from './transaction.js'

const DIGITS = /^\d+$/

/** A user from its selected columns. */
export function decodeUser(
  row: { id: unknown; username: unknown; admin: unknown; blocked: unknown },
  userIdType: UserIdType,
): User {
  if (typeof row.username !== 'string') throw new TypeError('patkit/sql: unexpected username value')
  return Object.freeze({
    id: decodeUserId(row.id, userIdType, 'id'),
    username: row.username,
    admin: decodeBoolean(row.admin, 'admin'),
    blocked: decodeBoolean(row.blocked, 'blocked'),
  })
}

/**
 * Finds a user by id (a number, or a string of digits) or by username in any case, as the memory store
 * does. Usernames are folded in JavaScript into `username_lower`, so every dialect compares alike.
 */
export async function selectUser(context: SqlContext, ref: number | string): Promise<User | null> {
  const { db, userIdType } = context
  const id = typeof ref === 'number' ? ref : DIGITS.test(ref) ? Number(ref) : null
  if (id !== null && !Number.isSafeInteger(id)) return null
  // A string-id table has no numeric ids: a number names no one there, and a string is a username.
  if (userIdType === 'string' && typeof ref === 'number') return null
  const query = db.selectFrom('users').select(['users.id', 'users.username', 'users.admin', 'users.blocked'])
  const row = await (id === null || userIdType === 'string'
    ? query.where('users.username_lower', '=', ref.toString().toLowerCase())
    : query.where('users.id', '=', id)
  ).executeTakeFirst()
  return row === undefined ? null : decodeUser(row, userIdType)
}

/**
 * Finds a user by id only, matched exactly: an id of the other kind than the table's `userIdType`
 * names no one (no query is run).
 */
export async function selectUserById(context: SqlContext, id: UserId): Promise<User | null> {
  if (!isUserIdOf(context.userIdType, id)) return null
  const row = await context.db
    .selectFrom('users')
    .select(['users.id', 'users.username', 'users.admin', 'users.blocked'])
    .where('users.id', '=', id)
    .executeTakeFirst()
  return row === undefined ? null : decodeUser(row, context.userIdType)
}

/**
 * Adds the user or replaces the one with its id, in one transaction. A username another id holds (in
 * any case) violates the unique index on `username_lower` and fails, as in the memory store. An
 * upsert is not used on purpose: MySQL's `ON DUPLICATE KEY UPDATE` fires on any unique key, and would
 * overwrite the other user instead of failing.
 */
export async function upsertUser(context: SqlContext, user: User): Promise<User> {
  const { dialect } = context
  const values = {
    username: user.username,
    username_lower: user.username.toLowerCase(),
    admin: dialect.bool(user.admin),
    blocked: dialect.bool(user.blocked),
  }
  const put = () =>
    writeTransaction(context, async (trx) => {
      let existing = trx.selectFrom('users').select('users.id').where('users.id', '=', user.id)
      if (dialect.supportsForUpdate) existing = existing.forUpdate()
      if ((await existing.executeTakeFirst()) === undefined) {
        await trx
          .insertInto('users')
          .values({ id: user.id, ...values })
          .execute()
      } else {
        await trx.updateTable('users').set(values).where('users.id', '=', user.id).execute()
      }
    })
  // Two callers adding the same new user at once both find no row (a row lock cannot lock a missing
  // row); the second insert then violates the primary key. Once more, it finds the row and updates it.
  // A username held by another id violates its unique index on every attempt, and fails.
  await retrying(put, context.dialect.isUniqueViolation, 2)
  return Object.freeze({ id: user.id, username: user.username, admin: user.admin, blocked: user.blocked })
}
