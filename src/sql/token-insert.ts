import { type Kysely, sql } from 'kysely'
import type { GranularScope } from '../domain/granular-scope.js'
import type { Token, TokenDraft } from '../domain/token.js'
import type { SqlDialect } from './dialect/sql-dialect.js'
import type { SqlContext } from './options.js'
import type { PatkitDatabase } from './schema.js'
import { StoreConflictError } from './store-failure.js'
import { decodeInteger, encodeToken } from './token-row.js'

/**
 * The stored token for a draft with its id and family: a fresh object with exactly the {@link Token}
 * fields, so nothing the caller holds is shared.
 */
export function storedToken(token: TokenDraft | Token, id: number, familyId: number): Token {
  return {
    id,
    userId: token.userId,
    name: token.name,
    description: token.description,
    scopes: [...token.scopes],
    createdAt: new Date(token.createdAt.getTime()),
    lastUsedAt: token.lastUsedAt === null ? null : new Date(token.lastUsedAt.getTime()),
    expiresAt: token.expiresAt,
    revoked: token.revoked,
    impersonation: token.impersonation,
    previousId: token.previousId,
    familyId,
    digest: token.digest,
    ...(token.granularScopes === undefined ? {} : { granularScopes: copyScopes(token.granularScopes) }),
  }
}

function copyScopes(scopes: readonly GranularScope[]): readonly GranularScope[] {
  return scopes.map((scope) => ({ ...scope, permissions: [...scope.permissions] }))
}

/**
 * Inserts one row and returns its id: `RETURNING id` where the dialect has it, else the driver's
 * insert id. `id` is given only by imports.
 */
export async function insertRow(
  db: Kysely<PatkitDatabase>,
  dialect: SqlDialect,
  token: TokenDraft | Token,
  familyId: number,
  id?: number,
): Promise<number> {
  const values = { ...encodeToken(dialect, token, familyId), ...(id === undefined ? {} : { id }) }
  const insert = db.insertInto('tokens').values(values)
  if (dialect.supportsReturning) {
    const row = await insert.returning('tokens.id').executeTakeFirstOrThrow()
    return decodeInteger(row.id, 'id')
  }
  const result = await insert.executeTakeFirstOrThrow()
  return id ?? decodeInteger(result.insertId, 'id')
}

/**
 * Stores a draft inside the caller's transaction. A first generation draft (`familyId: null`) is its
 * own family: its row is inserted with a placeholder family and then pointed at its own id, which no
 * other transaction can observe in between.
 */
export async function insertDraft(
  trx: Kysely<PatkitDatabase>,
  dialect: SqlDialect,
  draft: TokenDraft,
): Promise<Token> {
  const id = await insertRow(trx, dialect, draft, draft.familyId ?? 0)
  if (draft.familyId !== null) return storedToken(draft, id, draft.familyId)
  await trx.updateTable('tokens').set({ family_id: id }).where('tokens.id', '=', id).execute()
  return storedToken(draft, id, id)
}

/**
 * After an explicit id was inserted on PostgreSQL, moves the identity's sequence past it (never back),
 * so later inserts get ids above every imported one. MySQL's auto_increment and SQLite's
 * autoincrement do this by themselves.
 */
export async function bumpSequence(db: Kysely<PatkitDatabase>, table: string, id: number): Promise<void> {
  await sql`
    select setval(pg_get_serial_sequence(${table}, 'id'), cast(${id} as bigint))
    where cast(${id} as bigint) >
      coalesce(pg_sequence_last_value(cast(pg_get_serial_sequence(${table}, 'id') as regclass)), 0)`.execute(
    db,
  )
}

/**
 * What a failed insert of `token` threw, with the unique key it collided with named: after a unique
 * violation (the transaction rolled back), a read tells whether the digest, the id (an import) or the
 * predecessor (a token has one successor) is held. Any other error is returned as it is.
 */
export async function explainInsertFailure(
  { db, dialect }: SqlContext,
  error: unknown,
  token: TokenDraft | Token,
): Promise<unknown> {
  if (!dialect.isUniqueViolation(error)) return error
  const held = async (column: 'digest' | 'id' | 'previous_id', value: string | number): Promise<boolean> =>
    (await db
      .selectFrom('tokens')
      .select('tokens.id')
      .where(`tokens.${column}`, '=', value)
      .executeTakeFirst()) !== undefined
  if (await held('digest', token.digest)) {
    return new StoreConflictError('digest', 'a token with this digest is already stored', error)
  }
  if ('id' in token && (await held('id', token.id))) {
    return new StoreConflictError('id', `token id ${token.id} is already stored`, error)
  }
  if (token.previousId !== null && (await held('previous_id', token.previousId))) {
    return new StoreConflictError('previous_id', `token ${token.previousId} already has a successor`, error)
  }
  return error
}
