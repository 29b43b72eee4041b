import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely'
import type { UserDraft, UserFilter } from '../store/resource-store.js'
import type { User } from '../store/user.js'
import { USER_ID_TYPE_SETTING } from './migrations/0006-user-id-type.js'
import type { SqlContext } from './options.js'
import type { PatkitDatabase } from './schema.js'
import { StoreConflictError } from './store-failure.js'
import { decodeInteger } from './token-row.js'
import { writeTransaction } from './transaction.js'
import { decodeUser, encodeUser, userColumns } from './users.js'

/**
 * Attempts of `createUser` that lost the next id to a concurrent call (only without the settings row
 * lock). Every round has a winner, so N concurrent calls need at most N attempts.
 */
const CREATE_ATTEMPTS = 256

/**
 * Adds a user with the id one above every user's. Each attempt is one write transaction that first
 * locks the `user_id_type` settings row (where the dialect has row locks), so concurrent calls queue
 * there instead of all reading one highest id; then it reads the highest id and inserts the next one.
 * Without that row, or on a database where another writer inserts users directly, a concurrent call
 * that took the id first makes the insert violate the primary key and the next attempt reads the new
 * highest id. A username held by another user (in any case) violates its unique index instead, and
 * fails at once.
 */
export async function insertNextUser(context: SqlContext, draft: UserDraft): Promise<User> {
  const { dialect } = context
  const values = encodeUser(dialect, draft)
  for (let attempt = 1; ; attempt++) {
    try {
      const id = await writeTransaction(context, async (trx) => {
        if (dialect.supportsForUpdate) {
          await trx
            .selectFrom('settings')
            .select('settings.name')
            .where('settings.name', '=', USER_ID_TYPE_SETTING)
            .forUpdate()
            .execute()
        }
        const highest = await trx
          .selectFrom('users')
          .select(sql<unknown>`max(${sql.ref('users.id')})`.as('highest'))
          .executeTakeFirst()
        const next =
          highest?.highest === null || highest === undefined ? 1 : decodeInteger(highest.highest, 'id') + 1
        await trx
          .insertInto('users')
          .values({ id: next, ...values })
          .execute()
        return next
      })
      return decodeUser({ id, ...values }, context.userIdType)
    } catch (error) {
      const lostRace = dialect.isUniqueViolation(error) || dialect.isRetryable(error)
      if (!lostRace || attempt >= CREATE_ATTEMPTS) throw error
      const taken = await context.db
        .selectFrom('users')
        .select('users.id')
        .where('users.username_lower', '=', values.username_lower)
        .executeTakeFirst()
      if (taken !== undefined) {
        throw new StoreConflictError(
          'username',
          `username "${draft.username}" already belongs to user ${String(taken.id)}`,
          error,
        )
      }
    }
  }
}

function matching(
  context: SqlContext,
  filter: UserFilter,
): (eb: ExpressionBuilder<PatkitDatabase, 'users'>) => Expression<SqlBool> {
  const { dialect } = context
  return (eb) => {
    const conditions: Expression<SqlBool>[] = []
    if (filter.serviceAccount !== undefined)
      conditions.push(eb('users.service_account', '=', dialect.bool(filter.serviceAccount)))
    if (filter.bot !== undefined) conditions.push(eb('users.bot', '=', dialect.bool(filter.bot)))
    if (filter.provisionedByGroupId === null) conditions.push(eb('users.provisioned_by_group_id', 'is', null))
    else if (filter.provisionedByGroupId !== undefined)
      conditions.push(eb('users.provisioned_by_group_id', '=', filter.provisionedByGroupId))
    return eb.and(conditions)
  }
}

/** The users matching the filter, in id order. */
export async function selectUsers(context: SqlContext, filter: UserFilter): Promise<readonly User[]> {
  const rows = await context.db
    .selectFrom('users')
    .select(userColumns)
    .where(matching(context, filter))
    .orderBy('users.id')
    .execute()
  return Object.freeze(rows.map((row) => decodeUser(row, context.userIdType)))
}
