import type { ResourceType } from '../domain/resource.js'
import type { AuditEvent, AuditEventDraft, Hook, HookLog, NoticeInterval } from '../store/hook-store.js'
import type { SqlDialect } from './dialect/sql-dialect.js'
import { decodeBoolean, decodeInstant, decodeInteger, decodeText } from './token-row.js'

function corrupt(column: string, value: unknown): Error {
  return new TypeError(`patkit/sql: unexpected ${column} value ${String(value)}`)
}

function nullableText(value: unknown, column: string): string | null {
  return value === null || value === undefined ? null : decodeText(value, column)
}

function jsonObject(value: unknown, column: string): Record<string, unknown> {
  const parsed: unknown = JSON.parse(decodeText(value, column))
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw corrupt(column, value)
  return parsed as Record<string, unknown>
}

function flags(value: unknown, column: string): Readonly<Record<string, boolean>> {
  const parsed = jsonObject(value, column)
  for (const flag of Object.values(parsed)) if (typeof flag !== 'boolean') throw corrupt(column, value)
  return Object.freeze(parsed as Record<string, boolean>)
}

function texts(value: unknown, column: string): Readonly<Record<string, string>> {
  const parsed = jsonObject(value, column)
  for (const text of Object.values(parsed)) if (typeof text !== 'string') throw corrupt(column, value)
  return Object.freeze(parsed as Record<string, string>)
}

// pg reads float8 as a number, unless the host told it otherwise (then a string).
function decodeNumber(value: unknown, column: string): number {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  if (typeof number !== 'number' || !Number.isFinite(number)) throw corrupt(column, value)
  return number
}

function sourceType(value: unknown): ResourceType {
  if (value !== 'project' && value !== 'group') throw corrupt('source_type', value)
  return value
}

const ENTITY_TYPES: readonly unknown[] = [
  'User',
  'Project',
  'Group',
] satisfies AuditEventDraft['entityType'][]

function entityType(value: unknown): AuditEventDraft['entityType'] {
  if (!ENTITY_TYPES.includes(value)) throw corrupt('entity_type', value)
  return value as AuditEventDraft['entityType']
}

const INTERVALS: readonly unknown[] = [60, 30, 7] satisfies NoticeInterval[]

/** A `token_notices.interval_days` value as a {@link NoticeInterval}. */
export function decodeInterval(value: unknown): NoticeInterval {
  const days = decodeInteger(value, 'interval_days')
  if (!INTERVALS.includes(days)) throw corrupt('interval_days', value)
  return days as NoticeInterval
}

/** The columns of a hook selected, its instant as UTC text. */
export function hookColumns(dialect: SqlDialect) {
  return [
    'hooks.id',
    'hooks.source_type',
    'hooks.source_id',
    'hooks.url',
    'hooks.name',
    'hooks.description',
    'hooks.sealed_token',
    'hooks.events',
    'hooks.enable_ssl_verification',
    dialect.instantText('hooks.created_at').as('created_at_utc'),
  ] as const
}

/** A hook row as selected with {@link hookColumns}. */
export interface HookRow {
  readonly id: unknown
  readonly source_type: unknown
  readonly source_id: unknown
  readonly url: unknown
  readonly name: unknown
  readonly description: unknown
  readonly sealed_token: unknown
  readonly events: unknown
  readonly enable_ssl_verification: unknown
  readonly created_at_utc: unknown
}

/** A {@link Hook} from its row. */
export function decodeHook(row: HookRow): Hook {
  return Object.freeze({
    id: decodeInteger(row.id, 'id'),
    resource: Object.freeze({
      type: sourceType(row.source_type),
      id: decodeInteger(row.source_id, 'source_id'),
    }),
    url: decodeText(row.url, 'url'),
    name: nullableText(row.name, 'name'),
    description: nullableText(row.description, 'description'),
    sealedToken: nullableText(row.sealed_token, 'sealed_token'),
    events: flags(row.events, 'events'),
    enableSslVerification: decodeBoolean(row.enable_ssl_verification, 'enable_ssl_verification'),
    createdAt: decodeInstant(row.created_at_utc, 'created_at'),
  })
}

/** The columns of a hook log selected, its instant as UTC text. */
export function hookLogColumns(dialect: SqlDialect) {
  return [
    'hook_logs.id',
    'hook_logs.hook_id',
    'hook_logs.trigger',
    'hook_logs.url',
    'hook_logs.request_headers',
    'hook_logs.request_data',
    'hook_logs.response_headers',
    'hook_logs.response_body',
    'hook_logs.response_status',
    'hook_logs.execution_duration',
    'hook_logs.internal_error_message',
    dialect.instantText('hook_logs.created_at').as('created_at_utc'),
  ] as const
}

/** A hook log row as selected with {@link hookLogColumns}. */
export interface HookLogRow {
  readonly id: unknown
  readonly hook_id: unknown
  readonly trigger: unknown
  readonly url: unknown
  readonly request_headers: unknown
  readonly request_data: unknown
  readonly response_headers: unknown
  readonly response_body: unknown
  readonly response_status: unknown
  readonly execution_duration: unknown
  readonly internal_error_message: unknown
  readonly created_at_utc: unknown
}

/** A {@link HookLog} from its row. */
export function decodeHookLog(row: HookLogRow): HookLog {
  return Object.freeze({
    id: decodeInteger(row.id, 'id'),
    hookId: decodeInteger(row.hook_id, 'hook_id'),
    trigger: decodeText(row.trigger, 'trigger'),
    url: decodeText(row.url, 'url'),
    requestHeaders: texts(row.request_headers, 'request_headers'),
    requestData: decodeText(row.request_data, 'request_data'),
    responseHeaders: texts(row.response_headers, 'response_headers'),
    responseBody: decodeText(row.response_body, 'response_body'),
    responseStatus: decodeText(row.response_status, 'response_status'),
    executionDuration: decodeNumber(row.execution_duration, 'execution_duration'),
    internalErrorMessage: nullableText(row.internal_error_message, 'internal_error_message'),
    createdAt: decodeInstant(row.created_at_utc, 'created_at'),
  })
}

/** The columns of an audit event selected, its instant as UTC text. */
export function auditColumns(dialect: SqlDialect) {
  return [
    'audit_events.id',
    'audit_events.author_id',
    'audit_events.entity_type',
    'audit_events.entity_id',
    'audit_events.event_name',
    'audit_events.details',
    dialect.instantText('audit_events.created_at').as('created_at_utc'),
  ] as const
}

/** An audit event row as selected with {@link auditColumns}. */
export interface AuditRow {
  readonly id: unknown
  readonly author_id: unknown
  readonly entity_type: unknown
  readonly entity_id: unknown
  readonly event_name: unknown
  readonly details: unknown
  readonly created_at_utc: unknown
}

/** An {@link AuditEvent} from its row. */
export function decodeAuditEvent(row: AuditRow): AuditEvent {
  return Object.freeze({
    id: decodeInteger(row.id, 'id'),
    authorId: decodeInteger(row.author_id, 'author_id'),
    entityType: entityType(row.entity_type),
    entityId: decodeInteger(row.entity_id, 'entity_id'),
    eventName: decodeText(row.event_name, 'event_name'),
    details: Object.freeze(jsonObject(row.details, 'details')),
    createdAt: decodeInstant(row.created_at_utc, 'created_at'),
  })
}
