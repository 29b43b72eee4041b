import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely'
import { ResultAsync } from 'neverthrow'
import type { StoreFailure } from '../domain/errors.js'
import type { HookLogStatus } from '../store/hook-log-status.js'
import type {
  Hook,
  HookDraft,
  HookLog,
  HookLogDraft,
  HookStore,
  NoticeInterval,
  StorePage,
} from '../store/hook-store.js'
import {
  decodeHook,
  decodeHookLog,
  decodeInterval,
  type HookRow,
  hookColumns,
  hookLogColumns,
} from './hook-rows.js'
import type { SqlContext } from './options.js'
import { selectPage } from './page-query.js'
import type { PatkitDatabase } from './schema.js'
import { retrying, toStoreFailure } from './store-failure.js'
import { decodeInstant, decodeInteger } from './token-row.js'
import { writeTransaction } from './transaction.js'

/** A hook's columns as written: every field of the draft but its id. */
function hookValues({ dialect }: SqlContext, hook: HookDraft) {
  return {
    url: hook.url,
    name: hook.name,
    description: hook.description,
    sealed_token: hook.sealedToken,
    events: JSON.stringify(hook.events),
    enable_ssl_verification: dialect.bool(hook.enableSslVerification),
    created_at: dialect.instant(hook.createdAt),
  }
}

/** The hook as the store returns it: a fresh frozen copy, nothing shared with the caller. */
function storedHook(hook: HookDraft, id: number): Hook {
  return Object.freeze({
    id,
    resource: Object.freeze({ type: hook.resource.type, id: hook.resource.id }),
    url: hook.url,
    name: hook.name,
    description: hook.description,
    sealedToken: hook.sealedToken,
    events: Object.freeze({ ...hook.events }),
    enableSslVerification: hook.enableSslVerification,
    createdAt: new Date(hook.createdAt.getTime()),
  })
}

async function insertHook(context: SqlContext, draft: HookDraft): Promise<Hook> {
  const { db, dialect } = context
  const insert = db.insertInto('hooks').values({
    source_type: draft.resource.type,
    source_id: draft.resource.id,
    ...hookValues(context, draft),
  })
  const id = dialect.supportsReturning
    ? (await insert.returning('hooks.id').executeTakeFirstOrThrow()).id
    : (await insert.executeTakeFirstOrThrow()).insertId
  return storedHook(draft, decodeInteger(id, 'id'))
}

/** Whether the hook exists, its row locked for the rest of the transaction where the dialect can. */
async function lockHook(
  { dialect }: SqlContext,
  trx: Kysely<PatkitDatabase>,
  id: number,
): Promise<{ source_type: unknown; source_id: unknown } | undefined> {
  let query = trx
    .selectFrom('hooks')
    .select(['hooks.source_type', 'hooks.source_id'])
    .where('hooks.id', '=', id)
  if (dialect.supportsForUpdate) query = query.forUpdate()
  return query.executeTakeFirst()
}

function updateHook(context: SqlContext, hook: Hook): Promise<Hook | null> {
  return writeTransaction(context, async (trx) => {
    const row = await lockHook(context, trx, hook.id)
    if (row === undefined) return null
    await trx.updateTable('hooks').set(hookValues(context, hook)).where('hooks.id', '=', hook.id).execute()
    // The resource stays the stored one: a hook never moves.
    const resource = {
      type: row.source_type === 'group' ? ('group' as const) : ('project' as const),
      id: decodeInteger(row.source_id, 'source_id'),
    }
    return storedHook({ ...hook, resource }, hook.id)
  })
}

async function findHook({ db, dialect }: SqlContext, id: number): Promise<Hook | null> {
  const row: HookRow | undefined = await db
    .selectFrom('hooks')
    .select(hookColumns(dialect))
    .where('hooks.id', '=', id)
    .executeTakeFirst()
  return row === undefined ? null : decodeHook(row)
}

async function listHooks({ db, dialect }: SqlContext, type: string, id: number): Promise<readonly Hook[]> {
  const rows: HookRow[] = await db
    .selectFrom('hooks')
    .select(hookColumns(dialect))
    .where('hooks.source_type', '=', type)
    .where('hooks.source_id', '=', id)
    .orderBy('hooks.id')
    .execute()
  return Object.freeze(rows.map(decodeHook))
}

// The hook first, then its logs: the order appendHookLog locks them in, so the two never deadlock,
// and a log appended while the hook is being deleted waits, then finds no hook.
function deleteHook(context: SqlContext, id: number): Promise<boolean> {
  return writeTransaction(context, async (trx) => {
    const deleted = await trx.deleteFrom('hooks').where('hooks.id', '=', id).executeTakeFirst()
    await trx.deleteFrom('hook_logs').where('hook_logs.hook_id', '=', id).execute()
    return deleted.numDeletedRows > 0n
  })
}

function appendHookLog(context: SqlContext, draft: HookLogDraft): Promise<HookLog> {
  const { dialect } = context
  return writeTransaction(context, async (trx) => {
    if ((await lockHook(context, trx, draft.hookId)) === undefined) {
      throw new Error(`hook ${draft.hookId} does not exist`)
    }
    const insert = trx.insertInto('hook_logs').values({
      hook_id: draft.hookId,
      trigger: draft.trigger,
      url: draft.url,
      request_headers: JSON.stringify(draft.requestHeaders),
      request_data: draft.requestData,
      response_headers: JSON.stringify(draft.responseHeaders),
      response_body: draft.responseBody,
      response_status: draft.responseStatus,
      execution_duration: draft.executionDuration,
      internal_error_message: draft.internalErrorMessage,
      created_at: dialect.instant(draft.createdAt),
    })
    const id = dialect.supportsReturning
      ? (await insert.returning('hook_logs.id').executeTakeFirstOrThrow()).id
      : (await insert.executeTakeFirstOrThrow()).insertId
    return Object.freeze({
      id: decodeInteger(id, 'id'),
      hookId: draft.hookId,
      trigger: draft.trigger,
      url: draft.url,
      requestHeaders: Object.freeze({ ...draft.requestHeaders }),
      requestData: draft.requestData,
      responseHeaders: Object.freeze({ ...draft.responseHeaders }),
      responseBody: draft.responseBody,
      responseStatus: draft.responseStatus,
      executionDuration: draft.executionDuration,
      internalErrorMessage: draft.internalErrorMessage,
      createdAt: new Date(draft.createdAt.getTime()),
    })
  })
}

// GitLab's status filter in SQL: a stored status is a three-digit code as text or `internal error`, so
// a class of codes is a text range of three characters (digits sort before letters).
function statusCondition(
  eb: ExpressionBuilder<PatkitDatabase, 'hook_logs'>,
  status: HookLogStatus,
): Expression<SqlBool> {
  const column = 'hook_logs.response_status' as const
  const code = eb(eb.fn<number>('length', [column]), '=', 3)
  const between = (low: string, high: string) => eb.and([code, eb(column, '>=', low), eb(column, '<=', high)])
  if (typeof status === 'number') return eb(column, '=', String(status))
  if (status === 'successful') return between('200', '299')
  if (status === 'client_failure') return between('400', '499')
  return eb.not(between('000', '499'))
}

function logsOf(
  hookId: number,
  statuses: readonly HookLogStatus[],
): (eb: ExpressionBuilder<PatkitDatabase, 'hook_logs'>) => Expression<SqlBool> {
  return (eb) => {
    const own = eb('hook_logs.hook_id', '=', hookId)
    if (statuses.length === 0) return own
    return eb.and([own, eb.or(statuses.map((status) => statusCondition(eb, status)))])
  }
}

function listHookLogs(
  { db, dialect }: SqlContext,
  hookId: number,
  page: number,
  perPage: number,
  statuses: readonly HookLogStatus[],
): Promise<StorePage<HookLog>> {
  return selectPage(
    db.selectFrom('hook_logs').where(logsOf(hookId, statuses)),
    (matched) => matched.select(hookLogColumns(dialect)).orderBy('hook_logs.id', 'desc'),
    { page, perPage },
    decodeHookLog,
  )
}

/**
 * One insert-if-absent on the (token_id, interval_days) primary key: of any number of concurrent
 * calls, the database lets one row in, and only its statement counts a row. A statement the database
 * rolled back for a race (a deadlock, SQLite's busy timeout) inserted nothing, and runs again.
 */
function claimNotice(
  { db, dialect }: SqlContext,
  tokenId: number,
  interval: NoticeInterval,
  at: Date,
): Promise<boolean> {
  const values = { token_id: tokenId, interval_days: interval, sent_at: dialect.instant(at) }
  const claim = async (): Promise<boolean> => {
    if (dialect.name === 'mysql') {
      const result = await db.insertInto('token_notices').ignore().values(values).executeTakeFirst()
      return (result.numInsertedOrUpdatedRows ?? 0n) > 0n
    }
    const insert = db
      .insertInto('token_notices')
      .values(values)
      .onConflict((oc) => oc.columns(['token_id', 'interval_days']).doNothing())
    if (dialect.supportsReturning) {
      return (await insert.returning('token_notices.token_id').execute()).length > 0
    }
    const result = await insert.executeTakeFirst()
    return (result.numInsertedOrUpdatedRows ?? 0n) > 0n
  }
  return retrying(claim, dialect.isRetryable)
}

async function noticesOf(
  { db, dialect }: SqlContext,
  tokenId: number,
): Promise<ReadonlyMap<NoticeInterval, Date>> {
  const rows = await db
    .selectFrom('token_notices')
    .select(['token_notices.interval_days', dialect.instantText('token_notices.sent_at').as('sent_at_utc')])
    .where('token_notices.token_id', '=', tokenId)
    .orderBy('token_notices.interval_days', 'desc')
    .execute()
  return new Map(
    rows.map((row) => [decodeInterval(row.interval_days), decodeInstant(row.sent_at_utc, 'sent_at')]),
  )
}

/**
 * The SQL store's {@link HookStore} (schema version 0008): every method one statement or one write
 * transaction (a list of logs: a count, then its page unless past the end); a driver failure, or a log of a hook that does not exist, comes back as a
 * `store_failure`.
 */
export function sqlHooks(context: SqlContext): HookStore {
  const run = <T>(operation: string, work: () => Promise<T>): ResultAsync<T, StoreFailure> =>
    ResultAsync.fromPromise((async () => work())(), toStoreFailure(operation))
  return Object.freeze({
    insertHook: (draft) => run('insertHook', () => insertHook(context, draft)),
    updateHook: (hook) => run('updateHook', () => updateHook(context, hook)),
    findHook: (id) => run('findHook', () => findHook(context, id)),
    listHooks: (resource) => run('listHooks', () => listHooks(context, resource.type, resource.id)),
    deleteHook: (id) => run('deleteHook', () => deleteHook(context, id)),
    appendHookLog: (draft) => run('appendHookLog', () => appendHookLog(context, draft)),
    listHookLogs: (hookId, page, perPage, statuses = []) =>
      run('listHookLogs', () => listHookLogs(context, hookId, page, perPage, statuses)),
    claimNotice: (tokenId, interval, at) =>
      run('claimNotice', () => claimNotice(context, tokenId, interval, at)),
    noticesOf: (tokenId) => run('noticesOf', () => noticesOf(context, tokenId)),
  } satisfies HookStore)
}
