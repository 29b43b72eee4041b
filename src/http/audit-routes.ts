import { err, ok, type Result } from 'neverthrow'
import { READ_SCOPES } from '../authority/core/scope-policy.js'
import type { AuditScope } from '../authority/hooks/audit-methods.js'
import { invalidParameter } from '../domain/error-constructors.js'
import { parseIsoDateTime } from '../query/iso-datetime.js'
import type { AuditEvent, AuditEventFilter } from '../store/hook-store.js'
import { errorReply } from './error-response.js'
import { listParamsParser, parsePage } from './list-params.js'
import { paginationHeaders } from './pagination-headers.js'
import { pathRoute } from './path-params.js'
import { grapeFailures, type InvalidParameter, lastValue } from './request-params.js'
import { json, type Reply } from './responses.js'
import type { CallerInput, RouteRow } from './route.js'

/**
 * GitLab's audit event API (EE ee/lib/api/audit_events.rb and the group and project ones): the
 * instance's events for administrators, a group's and a project's for their members (see
 * `authority.audit`). An event the caller may not read is ActiveRecord's `404 Not found`.
 */
export const AUDIT_ROUTES: readonly RouteRow[] = [
  {
    method: 'GET',
    path: '/audit_events',
    scopes: READ_SCOPES,
    permission: { name: 'read_audit_event', boundary: 'instance' },
    serve: (i) => list({ type: 'instance' }, i, true),
  },
  pathRoute({
    method: 'GET',
    path: '/audit_events/:id',
    pathParams: { id: 'string' },
    scopes: READ_SCOPES,
    permission: { name: 'read_audit_event', boundary: 'instance' },
    serve: (i) => get({ type: 'instance' }, i, i.pathValues.id),
  }),
  ...(['project', 'group'] as const).flatMap((type): RouteRow[] => [
    pathRoute({
      method: 'GET',
      path: `/${type}s/:id/audit_events`,
      pathParams: { id: 'string' },
      scopes: READ_SCOPES,
      permission: { name: 'read_audit_event', boundary: type, ref: 'id' },
      serve: (i) => list({ type, ref: i.pathValues.id }, i, false),
    }),
    pathRoute({
      method: 'GET',
      path: `/${type}s/:id/audit_events/:audit_event_id`,
      pathParams: { id: 'string', audit_event_id: 'string' },
      scopes: READ_SCOPES,
      permission: { name: 'read_audit_event', boundary: type, ref: 'id' },
      serve: (i) => get({ type, ref: i.pathValues.id }, i, i.pathValues.audit_event_id),
    }),
  ]),
]

/** GitLab's `AuditEventFinder::VALID_ENTITY_TYPES`; patkit records only the first three. */
const ENTITY_TYPES = ['User', 'Group', 'Project', 'Gitlab::Audit::InstanceScope'] as const

/** EE::API::Entities::AuditEvent. */
export function auditEventJson(event: AuditEvent): Record<string, unknown> {
  const eventName = event.details['event_name']
  return {
    id: event.id,
    author_id: event.authorId,
    entity_id: event.entityId,
    entity_type: event.entityType,
    event_name: typeof eventName === 'string' ? eventName : event.eventName,
    details: event.details,
    created_at: event.createdAt.toISOString(),
  }
}

// `created_after`/`created_before` (DateTime); `entity_type`, `entity_id` (requires entity_type) on the instance's.
function filterOf(
  params: URLSearchParams,
  instance: boolean,
): Result<AuditEventFilter | null, InvalidParameter> {
  const failures: InvalidParameter[] = []
  const date = (name: string): Date | undefined => {
    const value = lastValue(params, name)
    if (value === undefined || value === '') return undefined
    const parsed = parseIsoDateTime(value)
    if (parsed.isErr()) failures.push(invalidParameter(name, 'invalid'))
    return parsed.map((p) => p.instant).unwrapOr(undefined)
  }
  const createdAfter = date('created_after')
  const createdBefore = date('created_before')
  let entityType: string | undefined
  let entityId: number | undefined
  if (instance) {
    entityType = lastValue(params, 'entity_type') || undefined
    if (entityType !== undefined && !(ENTITY_TYPES as readonly string[]).includes(entityType)) {
      failures.push(invalidParameter('entity_type', 'not_allowed_value'))
    }
    const id = lastValue(params, 'entity_id')
    if (id !== undefined && id !== '') {
      if (/^\d{1,15}$/.test(id)) entityId = Number(id)
      else failures.push(invalidParameter('entity_id', 'invalid'))
      if (entityType === undefined) failures.push(invalidParameter('entity_type', 'missing'))
    }
  }
  const failed = grapeFailures(failures)
  if (failed.isErr()) return err(failed.error)
  // The instance scope's events are none of patkit's: such a filter finds nothing.
  if (entityType === 'Gitlab::Audit::InstanceScope') return ok(null)
  return ok({
    ...(createdAfter === undefined ? {} : { createdAfter }),
    ...(createdBefore === undefined ? {} : { createdBefore }),
    ...(entityType === undefined
      ? {}
      : { entityType: entityType as AuditEventFilter['entityType'] & string }),
    ...(entityId === undefined ? {} : { entityId }),
  })
}

async function list(scope: AuditScope, input: CallerInput, instance: boolean): Promise<Reply> {
  const { authority, principal, url, publicUrl } = input
  const filter = filterOf(url.searchParams, instance)
  if (filter.isErr()) return errorReply(filter.error)
  const page = parsePage(url.searchParams, await listParamsParser())
  if (page.isErr()) return errorReply(page.error)
  // An InstanceScope filter: no event, after the caller is authorised (the entity id 0 matches none).
  const found = await authority.audit.list(principal, scope, filter.value ?? { entityId: 0 }, page.value)
  if (found.isErr()) return errorReply(found.error)
  return json(
    200,
    found.value.items.map(auditEventJson),
    paginationHeaders(found.value.pagination, url, publicUrl),
  )
}

// The event's id as sent: the finder decides (one that is no number finds none).
async function get(scope: AuditScope, input: CallerInput, eventId: string): Promise<Reply> {
  const { authority, principal } = input
  const found = await authority.audit.get(principal, scope, eventId)
  if (found.isErr()) return errorReply(found.error, 'revoke_by_id')
  return json(200, auditEventJson(found.value))
}
