import { err, ok, type Result } from 'neverthrow'
import { storeFailure } from '../domain/error-constructors.js'
import type { StoreFailure } from '../domain/errors.js'
import type { ResourceRef } from '../domain/resource.js'
import { type HookLogStatus, hookLogStatusMatches } from '../store/hook-log-status.js'
import type {
  AuditEvent,
  AuditEventDraft,
  AuditEventFilter,
  Hook,
  HookDraft,
  HookLog,
  HookLogDraft,
  NoticeInterval,
  StorePage,
} from '../store/hook-store.js'

/** The memory store's webhooks, delivery logs, notices given and audit events, kept as frozen copies. */
export interface HookTable {
  insertHook(draft: HookDraft): Hook
  updateHook(hook: Hook): Hook | null
  findHook(id: number): Hook | null
  listHooks(resource: ResourceRef): readonly Hook[]
  deleteHook(id: number): boolean
  appendHookLog(draft: HookLogDraft): Result<HookLog, StoreFailure>
  listHookLogs(
    hookId: number,
    page: number,
    perPage: number,
    statuses: readonly HookLogStatus[],
  ): StorePage<HookLog>
  claimNotice(tokenId: number, interval: NoticeInterval, at: Date): boolean
  noticesOf(tokenId: number): ReadonlyMap<NoticeInterval, Date>
  appendAuditEvent(draft: AuditEventDraft): AuditEvent
  findAuditEvent(id: number): AuditEvent | null
  listAuditEvents(filter: AuditEventFilter, page: number, perPage: number): StorePage<AuditEvent>
}

function frozenHook(hook: Hook): Hook {
  return Object.freeze({
    ...hook,
    resource: Object.freeze({ ...hook.resource }),
    events: Object.freeze({ ...hook.events }),
    createdAt: new Date(hook.createdAt.getTime()),
  })
}

function pageOf<T>(rows: readonly T[], page: number, perPage: number): StorePage<T> {
  const start = (page - 1) * perPage
  return { items: rows.slice(start, start + perPage), total: rows.length }
}

/**
 * Creates an empty {@link HookTable}. Ids go on from `nextIds` (a `replaceAll` keeps them rising, as
 * SQL sequences do).
 */
export function hookTable(
  nextIds: { hook: number; log: number; audit: number } = { hook: 1, log: 1, audit: 1 },
) {
  const ids = { ...nextIds }
  const hooks = new Map<number, Hook>()
  const logs = new Map<number, HookLog[]>()
  const notices = new Map<number, Map<NoticeInterval, Date>>()
  const audit: AuditEvent[] = []
  const table: HookTable & { readonly nextIds: () => typeof ids } = {
    nextIds: () => ({ ...ids }),
    insertHook: (draft) => {
      const hook = frozenHook({ ...draft, id: ids.hook++ })
      hooks.set(hook.id, hook)
      return hook
    },
    updateHook: (hook) => {
      const known = hooks.get(hook.id)
      if (known === undefined) return null
      const updated = frozenHook({ ...hook, resource: known.resource })
      hooks.set(hook.id, updated)
      return updated
    },
    findHook: (id) => hooks.get(id) ?? null,
    listHooks: (resource) =>
      [...hooks.values()].filter(
        (hook) => hook.resource.type === resource.type && hook.resource.id === resource.id,
      ),
    deleteHook: (id) => {
      logs.delete(id)
      return hooks.delete(id)
    },
    appendHookLog: (draft) => {
      if (!hooks.has(draft.hookId)) {
        return err(storeFailure('appendHookLog', new Error(`no hook ${draft.hookId}`)))
      }
      const log: HookLog = Object.freeze({
        ...draft,
        requestHeaders: Object.freeze({ ...draft.requestHeaders }),
        responseHeaders: Object.freeze({ ...draft.responseHeaders }),
        createdAt: new Date(draft.createdAt.getTime()),
        id: ids.log++,
      })
      const list = logs.get(draft.hookId) ?? []
      list.push(log)
      logs.set(draft.hookId, list)
      return ok(log)
    },
    listHookLogs: (hookId, page, perPage, statuses) =>
      pageOf(
        [...(logs.get(hookId) ?? [])]
          .filter((log) => hookLogStatusMatches(log.responseStatus, statuses))
          .reverse(),
        page,
        perPage,
      ),
    claimNotice: (tokenId, interval, at) => {
      const given = notices.get(tokenId) ?? new Map<NoticeInterval, Date>()
      if (given.has(interval)) return false
      given.set(interval, new Date(at.getTime()))
      notices.set(tokenId, given)
      return true
    },
    noticesOf: (tokenId) => new Map(notices.get(tokenId) ?? []),
    appendAuditEvent: (draft) => {
      const event: AuditEvent = Object.freeze({
        ...draft,
        details: Object.freeze({ ...draft.details }),
        createdAt: new Date(draft.createdAt.getTime()),
        id: ids.audit++,
      })
      audit.push(event)
      return event
    },
    findAuditEvent: (id) => audit.find((event) => event.id === id) ?? null,
    listAuditEvents: (filter, page, perPage) => {
      const after = filter.createdAfter?.getTime()
      const before = filter.createdBefore?.getTime()
      const matching = audit.filter(
        (event) =>
          (filter.entityType === undefined || event.entityType === filter.entityType) &&
          (filter.entityId === undefined || event.entityId === filter.entityId) &&
          (filter.authorId === undefined || event.authorId === filter.authorId) &&
          (after === undefined || event.createdAt.getTime() >= after) &&
          (before === undefined || event.createdAt.getTime() <= before),
      )
      return pageOf(matching.reverse(), page, perPage)
    },
  }
  return table
}
