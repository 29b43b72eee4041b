import type { Expression, ExpressionBuilder, SqlBool } from 'kysely'
import { ResultAsync } from 'neverthrow'
import type { StoreFailure } from '../domain/errors.js'
import type {
  AuditEvent,
  AuditEventDraft,
  AuditEventFilter,
  AuditStore,
  StorePage,
} from '../store/hook-store.js'
import { type AuditRow, auditColumns, decodeAuditEvent } from './hook-rows.js'
import type { SqlContext } from './options.js'
import { selectPage } from './page-query.js'
import type { PatkitDatabase } from './schema.js'
import { toStoreFailure } from './store-failure.js'
import { decodeInteger } from './token-row.js'

async function appendAuditEvent({ db, dialect }: SqlContext, draft: AuditEventDraft): Promise<AuditEvent> {
  const details = JSON.stringify(draft.details)
  const insert = db.insertInto('audit_events').values({
    author_id: draft.authorId,
    entity_type: draft.entityType,
    entity_id: draft.entityId,
    event_name: draft.eventName,
    details,
    created_at: dialect.instant(draft.createdAt),
  })
  const id = dialect.supportsReturning
    ? (await insert.returning('audit_events.id').executeTakeFirstOrThrow()).id
    : (await insert.executeTakeFirstOrThrow()).insertId
  return Object.freeze({
    id: decodeInteger(id, 'id'),
    authorId: draft.authorId,
    entityType: draft.entityType,
    entityId: draft.entityId,
    eventName: draft.eventName,
    // As a read returns them: what JSON keeps of the details, nothing shared with the caller.
    details: Object.freeze(JSON.parse(details) as Record<string, unknown>),
    createdAt: new Date(draft.createdAt.getTime()),
  })
}

async function findAuditEvent({ db, dialect }: SqlContext, id: number): Promise<AuditEvent | null> {
  const row: AuditRow | undefined = await db
    .selectFrom('audit_events')
    .select(auditColumns(dialect))
    .where('audit_events.id', '=', id)
    .executeTakeFirst()
  return row === undefined ? null : decodeAuditEvent(row)
}

function matching(
  { dialect }: SqlContext,
  filter: AuditEventFilter,
): (eb: ExpressionBuilder<PatkitDatabase, 'audit_events'>) => Expression<SqlBool> {
  return (eb) => {
    const conditions: Expression<SqlBool>[] = []
    if (filter.entityType !== undefined)
      conditions.push(eb('audit_events.entity_type', '=', filter.entityType))
    if (filter.entityId !== undefined) conditions.push(eb('audit_events.entity_id', '=', filter.entityId))
    if (filter.authorId !== undefined) conditions.push(eb('audit_events.author_id', '=', filter.authorId))
    if (filter.createdAfter !== undefined) {
      conditions.push(eb('audit_events.created_at', '>=', dialect.instant(filter.createdAfter)))
    }
    if (filter.createdBefore !== undefined) {
      conditions.push(eb('audit_events.created_at', '<=', dialect.instant(filter.createdBefore)))
    }
    return eb.and(conditions)
  }
}

function listAuditEvents(
  context: SqlContext,
  filter: AuditEventFilter,
  page: number,
  perPage: number,
): Promise<StorePage<AuditEvent>> {
  const { db, dialect } = context
  return selectPage(
    db.selectFrom('audit_events').where(matching(context, filter)),
    (matched) => matched.select(auditColumns(dialect)).orderBy('audit_events.id', 'desc'),
    { page, perPage },
    decodeAuditEvent,
  )
}

/**
 * The SQL store's {@link AuditStore} (schema version 0008): one statement per call (a list counts,
 * then reads its page unless the page lies past the end); `details` is stored as JSON text.
 */
export function sqlAudit(context: SqlContext): AuditStore {
  const run = <T>(operation: string, work: () => Promise<T>): ResultAsync<T, StoreFailure> =>
    ResultAsync.fromPromise((async () => work())(), toStoreFailure(operation))
  return Object.freeze({
    appendAuditEvent: (draft) => run('appendAuditEvent', () => appendAuditEvent(context, draft)),
    findAuditEvent: (id) => run('findAuditEvent', () => findAuditEvent(context, id)),
    listAuditEvents: (filter, page, perPage) =>
      run('listAuditEvents', () => listAuditEvents(context, filter, page, perPage)),
  } satisfies AuditStore)
}
