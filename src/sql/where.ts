import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely'
import { utcDay } from '../domain/calendar.js'
import type { TokenFilter } from '../query/filter.js'
import { foldCase, parseSearch } from '../query/search.js'
import type { SqlDialect } from './dialect/sql-dialect.js'
import { escapeLike, LIKE_ESCAPE } from './like.js'
import type { PatkitDatabase } from './schema.js'

type TokensBuilder = ExpressionBuilder<PatkitDatabase, 'tokens'>

// The name, lower-cased by the database, against a pattern folded by JavaScript (foldCase): the two
// agree on ASCII. `LIKE` rather than `=` for the exact case, because MySQL's PAD SPACE collations make
// 'ci' = 'ci ' true, while LIKE compares every character.
function nameLike(pattern: string): Expression<SqlBool> {
  return sql<SqlBool>`lower(${sql.ref('tokens.name')}) like ${pattern} escape ${sql.lit(LIKE_ESCAPE)}`
}

/**
 * The name conditions of GitLab's search: every term as a case-insensitive substring, or the whole
 * query as a case-insensitive equality; `%` and `_` are literal.
 */
function searchConditions(search: string): Expression<SqlBool>[] {
  const plan = parseSearch(search)
  switch (plan.kind) {
    case 'none':
      return []
    case 'exact':
      return [nameLike(escapeLike(foldCase(plan.value)))]
    case 'terms':
      return plan.terms.map((term) => nameLike(`%${escapeLike(foldCase(term))}%`))
  }
}

/**
 * `active` at `now`: not revoked, and no `expires_at` or one after the UTC day of `now` (a token is
 * expired from 00:00 UTC of its `expires_at` day).
 */
function activeAt(eb: TokensBuilder, dialect: SqlDialect, now: Date): Expression<SqlBool> {
  return eb.and([
    eb('tokens.revoked', '=', dialect.bool(false)),
    eb.or([eb('tokens.expires_at', 'is', null), eb('tokens.expires_at', '>', utcDay(now))]),
  ])
}

/**
 * `filter.resource`: the token's user is a bot (`users.bot`) and a member of the resource. A semi-join
 * through the members key (source_type, source_id, user_id) and the users primary key, so the tokens
 * are then read through their (user_id, id) index.
 */
function ofBotMembers(
  eb: TokensBuilder,
  dialect: SqlDialect,
  resource: NonNullable<TokenFilter['resource']>,
): Expression<SqlBool> {
  const bots = eb
    .selectFrom('members')
    .innerJoin('users', 'users.id', 'members.user_id')
    .select('members.user_id')
    .where('members.source_type', '=', resource.type)
    .where('members.source_id', '=', resource.id)
    .where('users.bot', '=', dialect.bool(true))
  return eb('tokens.user_id', 'in', bots)
}

/**
 * Compiles a {@link TokenFilter} to one `WHERE` condition with the semantics of the in-memory
 * predicate: `created*` and `lastUsed*` inclusive (a NULL `last_used_at` never matches, as SQL's
 * comparisons with NULL never hold); `expiresBefore` strict and `expiresAfter` inclusive (a NULL
 * `expires_at` matches neither); `state` at `now`; `search` as {@link searchConditions}; `resource` as {@link ofBotMembers}.
 */
export function filterCondition(
  dialect: SqlDialect,
  filter: TokenFilter,
  now: Date,
): (eb: TokensBuilder) => Expression<SqlBool> {
  return (eb) => {
    const conditions: Expression<SqlBool>[] = []
    const add = (condition: Expression<SqlBool>): void => {
      conditions.push(condition)
    }
    if (filter.userId !== undefined) add(eb('tokens.user_id', '=', filter.userId))
    if (filter.resource !== undefined) add(ofBotMembers(eb, dialect, filter.resource))
    if (filter.excludeImpersonation === true) add(eb('tokens.impersonation', '=', dialect.bool(false)))
    if (filter.impersonationOnly === true) add(eb('tokens.impersonation', '=', dialect.bool(true)))
    if (filter.createdAfter !== undefined)
      add(eb('tokens.created_at', '>=', dialect.instant(filter.createdAfter)))
    if (filter.createdBefore !== undefined)
      add(eb('tokens.created_at', '<=', dialect.instant(filter.createdBefore)))
    if (filter.lastUsedAfter !== undefined)
      add(eb('tokens.last_used_at', '>=', dialect.instant(filter.lastUsedAfter)))
    if (filter.lastUsedBefore !== undefined)
      add(eb('tokens.last_used_at', '<=', dialect.instant(filter.lastUsedBefore)))
    if (filter.expiresAfter !== undefined) add(eb('tokens.expires_at', '>=', filter.expiresAfter))
    if (filter.expiresBefore !== undefined) add(eb('tokens.expires_at', '<', filter.expiresBefore))
    if (filter.revoked !== undefined) add(eb('tokens.revoked', '=', dialect.bool(filter.revoked)))
    if (filter.state === 'active') add(activeAt(eb, dialect, now))
    if (filter.state === 'inactive') {
      add(eb.or([eb('tokens.revoked', '=', dialect.bool(true)), eb('tokens.expires_at', '<=', utcDay(now))]))
    }
    if (filter.search !== undefined) conditions.push(...searchConditions(filter.search))
    return eb.and(conditions)
  }
}
