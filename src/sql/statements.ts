import type { UserId } from '../domain/user-id.js'
import type { SortKey } from '../query/filter.js'
import type { SqlContext } from './options.js'
import { directed, orderKeys } from './order.js'
import { type Prepared, prepare, slot } from './prepared.js'
import { revokeActive } from './revoke-active.js'
import type { TokensTable } from './schema.js'
import { type FirstRow, firstRow } from './sqlite-direct.js'
import { type encodeToken, type TokenRow, tokenColumns } from './token-row.js'

/**
 * A token row joined with its owner's columns (all null when the user is missing).
 */
export interface TokenUserRow extends TokenRow {
  readonly owner_id: unknown
  readonly owner_username: unknown
  readonly owner_admin: unknown
  readonly owner_blocked: unknown
  readonly owner_name: unknown
  readonly owner_bot: unknown
  readonly owner_bot_namespace_type: unknown
  readonly owner_bot_namespace_id: unknown
  readonly owner_service_account: unknown
  readonly owner_provisioned_by_group_id: unknown
}

/**
 * A {@link TokenUserRow} from its column values, in `withUserByDigest`'s select order: `tokenColumns`'
 * then the owner's (a wrong order fails the store's conformance suite with direct reads).
 */
function tokenUserRowOf(values: readonly unknown[]): TokenUserRow {
  return {
    id: values[0],
    user_id: values[1],
    name: values[2],
    description: values[3],
    scopes: values[4],
    created_at_utc: values[5],
    last_used_at_utc: values[6],
    last_used_ips: values[7],
    expires_on: values[8],
    revoked: values[9],
    impersonation: values[10],
    previous_id: values[11],
    family_id: values[12],
    digest: values[13],
    granular_scopes: values[14],
    owner_id: values[15],
    owner_username: values[16],
    owner_admin: values[17],
    owner_blocked: values[18],
    owner_name: values[19],
    owner_bot: values[20],
    owner_bot_namespace_type: values[21],
    owner_bot_namespace_id: values[22],
    owner_service_account: values[23],
    owner_provisioned_by_group_id: values[24],
  }
}

/**
 * The hot statements of one store, compiled once with its table prefix: reads by digest and id, the
 * joined principal lookup, the throttled `last_used_at` write, rotation's two writes, and the pages of
 * a user's own list (one per sort order, compiled on first use).
 */
export interface Statements {
  readonly byDigest: Prepared<TokenRow>
  readonly byId: Prepared<TokenRow>
  /** Values: the predecessor's id (`previous_id`, UNIQUE, so at most one row). */
  readonly successorOf: Prepared<TokenRow>
  /** Values: digest. */
  readonly withUserByDigest: Prepared<TokenUserRow>
  /** `withUserByDigest`'s row, run directly on `sqliteDatabase` when the store has one. */
  readonly firstWithUserByDigest: FirstRow<TokenUserRow>
  /** Values: at, id, the cutoff (`lastUsedCutoff`). */
  readonly touch: Prepared<unknown>
  /**
   * Values: the family id. Locks the family's root row (`SELECT ... FOR UPDATE`), the lock every
   * rotation and reuse detection takes first. `null` where the dialect has no row locks (SQLite's write
   * transactions hold the whole database's write lock instead).
   */
  readonly lockFamily: Prepared<{ readonly id: unknown }> | null
  /** Values: id. The conditional revoke (`revokeActive`), compiled. */
  readonly revokeIfActive: Prepared<unknown>
  /** Values: the columns of {@link insertColumns}, in order. */
  readonly insert: Prepared<{ readonly id: unknown }>
  /** Values: userId, limit, offset. The page of a user's tokens with `count(*) over ()` as `total_count`. */
  userPage(
    sort: SortKey,
    excludeImpersonation: boolean,
  ): Prepared<TokenRow & { readonly total_count: unknown }>
}

/** The columns the prepared insert binds, in order. */
export const insertColumns = [
  'user_id',
  'name',
  'description',
  'scopes',
  'created_at',
  'last_used_at',
  'last_used_ips',
  'expires_at',
  'revoked',
  'impersonation',
  'previous_id',
  'family_id',
  'digest',
  'granular_scopes',
] as const satisfies readonly (keyof TokensTable)[]

/**
 * Compiles a store's hot statements (the list pages lazily, per sort order and impersonation flag).
 */
export function prepareStatements({ db, dialect, sqliteDatabase }: SqlContext): Statements {
  const columns = tokenColumns(dialect)
  const digest = slot<string>('digest')
  const id = slot<number>('id')
  const at = slot<string>('at')
  const cutoff = slot<string>('cutoff')
  const values = insertColumns.map((column) => slot<never>(column))
  const row = Object.fromEntries(insertColumns.map((column, k) => [column, values[k]])) as ReturnType<
    typeof encodeToken
  >
  const insert = db.insertInto('tokens').values(row)
  const withUserByDigest = prepare(
    db
      .selectFrom('tokens')
      .leftJoin('users', 'users.id', 'tokens.user_id')
      .select(columns)
      .select([
        'users.id as owner_id',
        'users.username as owner_username',
        'users.admin as owner_admin',
        'users.blocked as owner_blocked',
        'users.name as owner_name',
        'users.bot as owner_bot',
        'users.bot_namespace_type as owner_bot_namespace_type',
        'users.bot_namespace_id as owner_bot_namespace_id',
        'users.service_account as owner_service_account',
        'users.provisioned_by_group_id as owner_provisioned_by_group_id',
      ])
      .where((eb) => dialect.atMostOneRow(eb('tokens.digest', '=', digest))),
    [digest],
  )
  const pages = new Map<string, Prepared<TokenRow & { readonly total_count: unknown }>>()
  return {
    byDigest: prepare(db.selectFrom('tokens').select(columns).where('tokens.digest', '=', digest), [digest]),
    byId: prepare(db.selectFrom('tokens').select(columns).where('tokens.id', '=', id), [id]),
    successorOf: prepare(db.selectFrom('tokens').select(columns).where('tokens.previous_id', '=', id), [id]),
    withUserByDigest,
    firstWithUserByDigest: firstRow(withUserByDigest, sqliteDatabase, tokenUserRowOf),
    touch: prepare(
      db
        .updateTable('tokens')
        .set({ last_used_at: at })
        .where('tokens.id', '=', id)
        // nextLastUsed's test for a use without an ip: never used, or used at or before lastUsedCutoff.
        .where((eb) =>
          eb.or([eb('tokens.last_used_at', 'is', null), eb('tokens.last_used_at', '<=', cutoff)]),
        ),
      [at, id, cutoff],
    ),
    lockFamily: dialect.supportsForUpdate
      ? prepare(db.selectFrom('tokens').select('tokens.id').where('tokens.id', '=', id).forUpdate(), [id])
      : null,
    revokeIfActive: prepare(revokeActive(db, dialect, id), [id]),
    // Without RETURNING the driver's insert id is read; the row type is then never looked at.
    insert: dialect.supportsReturning
      ? prepare(insert.returning('tokens.id'), values)
      : prepare<{ readonly id: unknown }>(insert, values),
    userPage(sort, excludeImpersonation) {
      const key = `${sort}|${excludeImpersonation}`
      const known = pages.get(key)
      if (known !== undefined) return known
      const userId = slot<UserId>('userId')
      const limit = slot<number>('limit')
      const offset = slot<number>('offset')
      let page = db
        .selectFrom('tokens')
        .select(columns)
        .select((eb) => eb.fn.countAll().over().as('total_count'))
        .where('tokens.user_id', '=', userId)
      if (excludeImpersonation) page = page.where('tokens.impersonation', '=', dialect.bool(false))
      for (const key of orderKeys(dialect, sort)) page = page.orderBy(key.expression, directed(key))
      const prepared = prepare(page.limit(limit).offset(offset), [userId, limit, offset])
      pages.set(key, prepared)
      return prepared
    },
  }
}
