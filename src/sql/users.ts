import type { ResourceType } from '../domain/resource.js'
import { isUserIdOf, type UserId, type UserIdType } from '../domain/user-id.js'
import type { User } from '../store/user.js'
import type { SqlDialect } from './dialect/sql-dialect.js'
import type { SqlContext } from './options.js'
import { retrying, StoreConflictError } from './store-failure.js'
import { decodeBoolean, decodeInteger, decodeUserId } from './token-row.js'
import { writeTransaction } from './transaction.js'

const DIGITS = /^\d+$/

/** The columns a user is read with, in the order {@link UserRow} names them. */
export const userColumns = [
  'users.id',
  'users.username',
  'users.admin',
  'users.blocked',
  'users.name',
  'users.bot',
  'users.bot_namespace_type',
  'users.bot_namespace_id',
  'users.service_account',
  'users.provisioned_by_group_id',
] as const

/** A user row before decoding: the driver decides each value's type. */
export interface UserRow {
  readonly id: unknown
  readonly username: unknown
  readonly admin: unknown
  readonly blocked: unknown
  readonly name: unknown
  readonly bot: unknown
  readonly bot_namespace_type: unknown
  readonly bot_namespace_id: unknown
  readonly service_account: unknown
  readonly provisioned_by_group_id: unknown
}

function decodeNamespace(
  type: unknown,
  id: unknown,
): { readonly type: ResourceType; readonly id: number } | null {
  if (type === null || type === undefined) return null
  if (type !== 'project' && type !== 'group')
    throw new TypeError(`patkit/sql: unexpected bot_namespace_type ${String(type)}`)
  return Object.freeze({ type, id: decodeInteger(id, 'bot_namespace_id') })
}

/**
 * A user from its selected columns. A column at its default (null, false) leaves its field out, as a
 * user put without it had none: absent, false and null mean the same to every reader.
 */
export function decodeUser(row: UserRow, userIdType: UserIdType): User {
  if (typeof row.username !== 'string') throw new TypeError('patkit/sql: unexpected username value')
  if (row.name !== null && row.name !== undefined && typeof row.name !== 'string') {
    throw new TypeError('patkit/sql: unexpected name value')
  }
  const namespace = decodeNamespace(row.bot_namespace_type, row.bot_namespace_id)
  const provisioned =
    row.provisioned_by_group_id === null || row.provisioned_by_group_id === undefined
      ? null
      : decodeInteger(row.provisioned_by_group_id, 'provisioned_by_group_id')
  return Object.freeze({
    id: decodeUserId(row.id, userIdType, 'id'),
    username: row.username,
    admin: decodeBoolean(row.admin, 'admin'),
    blocked: decodeBoolean(row.blocked, 'blocked'),
    ...(typeof row.name === 'string' ? { name: row.name } : {}),
    ...(decodeBoolean(row.bot, 'bot') ? { bot: true } : {}),
    ...(namespace === null ? {} : { botNamespace: namespace }),
    ...(decodeBoolean(row.service_account, 'service_account') ? { serviceAccount: true } : {}),
    ...(provisioned === null ? {} : { provisionedByGroupId: provisioned }),
  })
}

/** The column values of a user, its id and username key aside. */
export function encodeUser(dialect: SqlDialect, user: Omit<User, 'id'>) {
  return {
    username: user.username,
    username_lower: user.username.toLowerCase(),
    admin: dialect.bool(user.admin),
    blocked: dialect.bool(user.blocked),
    name: user.name ?? null,
    bot: dialect.bool(user.bot ?? false),
    bot_namespace_type: user.botNamespace?.type ?? null,
    bot_namespace_id: user.botNamespace?.id ?? null,
    service_account: dialect.bool(user.serviceAccount ?? false),
    provisioned_by_group_id: user.provisionedByGroupId ?? null,
  }
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
  const query = db.selectFrom('users').select(userColumns)
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
    .select(userColumns)
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
  const values = encodeUser(dialect, user)
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
  try {
    await retrying(put, context.dialect.isUniqueViolation, 2)
  } catch (error) {
    throw await usernameConflict(context, error, user)
  }
  // What a read returns (absent, false and null mean the same), from the values written.
  return decodeUser({ id: user.id, ...values }, context.userIdType)
}

/** A unique violation of `user`'s write, as a `StoreConflictError` when another id holds the username. */
async function usernameConflict(context: SqlContext, error: unknown, user: User): Promise<unknown> {
  if (!context.dialect.isUniqueViolation(error)) return error
  const holder = await context.db
    .selectFrom('users')
    .select('users.id')
    .where('users.username_lower', '=', user.username.toLowerCase())
    .executeTakeFirst()
  if (holder === undefined || String(holder.id) === String(user.id)) return error
  return new StoreConflictError(
    'username',
    `username "${user.username}" already belongs to user ${String(holder.id)}`,
    error,
  )
}
