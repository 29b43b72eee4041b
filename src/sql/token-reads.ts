import type { Token } from '../domain/token.js'
import { isUserIdOf, type UserId, type UserIdType } from '../domain/user-id.js'
import type { ListQuery, TokenFilter } from '../query/filter.js'
import { pageOffset } from '../query/pagination.js'
import type { StorePage } from '../store/hook-store.js'
import type { TokenWithUser } from '../store/token-store.js'
import type { SqlContext } from './options.js'
import { directed, orderKeys } from './order.js'
import { selectPage } from './page-query.js'
import type { Statements, TokenUserRow } from './statements.js'
import { decodeInteger, decodeToken, tokenColumns } from './token-row.js'
import { decodeUser } from './users.js'
import { filterCondition } from './where.js'

/** The token with an id or a digest, or null, through the store's compiled statement. */
export async function findTokenBy(
  { db, userIdType }: SqlContext,
  statements: Statements,
  column: 'id' | 'digest' | 'previous_id',
  value: number | string,
): Promise<Token | null> {
  const statement =
    column === 'id' ? statements.byId : column === 'digest' ? statements.byDigest : statements.successorOf
  const row = (await statement.run(db, [value])).rows[0]
  return row === undefined ? null : decodeToken(row, userIdType)
}

/**
 * The token with a digest and its owner (null when the users table has no such user), in one
 * statement: the meaning of `findByDigest` followed by `findUser(token.userId)`. At once when the
 * store reads SQLite directly, a promise otherwise; a failure may throw or reject.
 */
export function findTokenWithUser(
  { db, userIdType }: SqlContext,
  statements: Statements,
  digest: string,
): TokenWithUser | null | Promise<TokenWithUser | null> {
  const row = statements.firstWithUserByDigest(db, [digest])
  return row instanceof Promise
    ? row.then((read) => tokenWithUser(read, userIdType))
    : tokenWithUser(row, userIdType)
}

function tokenWithUser(row: TokenUserRow | undefined, userIdType: UserIdType): TokenWithUser | null {
  if (row === undefined) return null
  const user =
    row.owner_id === null
      ? null
      : decodeUser(
          {
            id: row.owner_id,
            username: row.owner_username,
            admin: row.owner_admin,
            blocked: row.owner_blocked,
            name: row.owner_name,
            bot: row.owner_bot,
            bot_namespace_type: row.owner_bot_namespace_type,
            bot_namespace_id: row.owner_bot_namespace_id,
            service_account: row.owner_service_account,
            provisioned_by_group_id: row.owner_provisioned_by_group_id,
          },
          userIdType,
        )
  return { token: decodeToken(row, userIdType), user }
}

// A filter naming a user and nothing else (what a non-admin's own list sends): its page is one
// compiled statement, and its rows are bounded by one user's tokens, so `count(*) over ()` is cheap.
function userOnly(filter: TokenFilter): UserId | null {
  for (const [key, value] of Object.entries(filter)) {
    if (value !== undefined && key !== 'userId' && key !== 'excludeImpersonation') return null
  }
  return filter.userId ?? null
}

const NO_TOKENS: StorePage<Token> = Object.freeze({ items: Object.freeze([]), total: 0 })

/**
 * One page of the tokens matching a list query, in its order, and how many match in all. A user's own
 * list is one compiled statement with `count(*) over ()` (a second `COUNT(*)` only for a page past the
 * end); any other filter is a `COUNT(*)` and a `LIMIT/OFFSET` select over the same compiled filter, as
 * a window count would make the database read every matching row in full however small the page.
 */
export async function selectTokenPage(
  context: SqlContext,
  statements: Statements,
  query: ListQuery,
): Promise<StorePage<Token>> {
  const { db, dialect } = context
  // An id of the other kind names no one; bound as it is, the database would convert it (42 = '42').
  const named = query.filter.userId
  if (named !== undefined && !isUserIdOf(context.userIdType, named)) return NO_TOKENS
  const userId = userOnly(query.filter)
  const offset = pageOffset(query.page)
  if (userId !== null) {
    const page = statements.userPage(query.sort, query.filter.excludeImpersonation === true)
    const { rows } = await page.run(db, [userId, query.page.perPage, offset])
    const first = rows[0]
    // An empty page at offset 0 means nothing matches; past the end, the total needs its own count.
    if (first !== undefined)
      return Object.freeze({
        items: Object.freeze(rows.map((row) => decodeToken(row, context.userIdType))),
        total: decodeInteger(first.total_count, 'count'),
      })
    if (offset === 0) return NO_TOKENS
  }
  return selectPage(
    db.selectFrom('tokens').where(filterCondition(dialect, query.filter, query.now)),
    (matched) => {
      let page = matched.select(tokenColumns(dialect))
      for (const key of orderKeys(dialect, query.sort)) page = page.orderBy(key.expression, directed(key))
      return page
    },
    query.page,
    (row) => decodeToken(row, context.userIdType),
  )
}
