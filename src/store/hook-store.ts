import type { ResultAsync } from 'neverthrow'
import type { StoreFailure } from '../domain/errors.js'
import type { ResourceRef } from '../domain/resource.js'
import type { HookLogStatus } from './hook-log-status.js'

/**
 * A project or group webhook as a store keeps it: GitLab's `web_hooks` row as far as patkit serves it.
 * `sealedToken` is the hook's secret token sealed by its owner (the fake seals it with a key of its
 * own), never the token in plain text; `null` when the hook has none. `events` holds every event flag
 * the API was given, by GitLab's parameter name (`resource_access_token_events`, `push_events`, ...).
 *
 * @example
 * ```ts
 * import type { HookDraft } from 'patkit/store'
 * const draft: HookDraft = {
 *   resource: { type: 'project', id: 7 }, url: 'http://127.0.0.1:9000/hook', name: null, description: null,
 *   sealedToken: null, events: { resource_access_token_events: true }, enableSslVerification: true,
 *   createdAt: new Date('2026-01-01T00:00:00Z'),
 * }
 * ```
 */
export interface HookDraft {
  readonly resource: ResourceRef
  readonly url: string
  readonly name: string | null
  readonly description: string | null
  readonly sealedToken: string | null
  readonly events: Readonly<Record<string, boolean>>
  readonly enableSslVerification: boolean
  readonly createdAt: Date
}

/**
 * A stored webhook: its draft and the id the store gave it (above every id given before).
 *
 * @example
 * ```ts
 * import type { Hook } from 'patkit/store'
 * const subscribed = (hook: Hook) => hook.events['resource_access_token_events'] === true
 * ```
 */
export interface Hook extends HookDraft {
  readonly id: number
}

/**
 * One delivery attempt as GitLab's `web_hook_logs` row records it: what was sent (headers with the
 * secret already redacted), what came back, and how long it took. `responseStatus` is the HTTP status
 * as text, or GitLab's `"internal error"` when no answer came (`internalErrorMessage` says why).
 *
 * @example
 * ```ts
 * import type { HookLogDraft } from 'patkit/store'
 * const log: HookLogDraft = {
 *   hookId: 1, trigger: 'resource_access_token_hooks', url: 'http://127.0.0.1:9000/hook',
 *   requestHeaders: { 'X-Gitlab-Token': '[REDACTED]' }, requestData: '{}', responseHeaders: {},
 *   responseBody: 'ok', responseStatus: '200', executionDuration: 0.012, internalErrorMessage: null,
 *   createdAt: new Date('2026-01-01T01:00:00Z'),
 * }
 * ```
 */
export interface HookLogDraft {
  readonly hookId: number
  readonly trigger: string
  readonly url: string
  readonly requestHeaders: Readonly<Record<string, string>>
  readonly requestData: string
  readonly responseHeaders: Readonly<Record<string, string>>
  readonly responseBody: string
  readonly responseStatus: string
  /** Seconds. */
  readonly executionDuration: number
  readonly internalErrorMessage: string | null
  readonly createdAt: Date
}

/**
 * A stored delivery attempt.
 *
 * @example
 * ```ts
 * import type { HookLog } from 'patkit/store'
 * const failed = (log: HookLog) => log.responseStatus === 'internal error'
 * ```
 */
export interface HookLog extends HookLogDraft {
  readonly id: number
}

/**
 * One of GitLab's expiry notices of a token: the days before expiry it covers (GitLab's
 * `sixty_days`, `thirty_days`, `seven_days` intervals).
 *
 * @example
 * ```ts
 * import type { NoticeInterval } from 'patkit/store'
 * const interval: NoticeInterval = 7
 * ```
 */
export type NoticeInterval = 60 | 30 | 7

/**
 * A page of a store's rows and the total of every match.
 *
 * @example
 * ```ts
 * import type { StorePage, HookLog } from 'patkit/store'
 * const none: StorePage<HookLog> = { items: [], total: 0 }
 * ```
 */
export interface StorePage<T> {
  readonly items: readonly T[]
  readonly total: number
}

/**
 * Where a store keeps GitLab's webhooks, their delivery logs and which expiry notices each token was
 * given (GitLab's `*_notification_sent_at` columns), so that a notice is sent once, also across a
 * restart. Part of a {@link ResourceStore} (`store.resources.hooks`); `replaceAll` empties all of it.
 *
 * @example
 * ```ts
 * import { memoryStore } from 'patkit/memory'
 *
 * const hooks = memoryStore().resources?.hooks
 * const first = await hooks?.claimNotice(42, 7, new Date('2026-03-01T01:00:00Z')) // true: send it
 * const again = await hooks?.claimNotice(42, 7, new Date('2026-03-02T01:00:00Z')) // false: sent before
 * ```
 */
export interface HookStore {
  /** Stores a new hook with an id above every id given before. */
  insertHook(draft: HookDraft): ResultAsync<Hook, StoreFailure>
  /** Replaces the hook with the same id (its resource unchanged); `null` when there is none. */
  updateHook(hook: Hook): ResultAsync<Hook | null, StoreFailure>
  /** The hook with this id, or `null`. */
  findHook(id: number): ResultAsync<Hook | null, StoreFailure>
  /** The hooks of one project or group, in id order. */
  listHooks(resource: ResourceRef): ResultAsync<readonly Hook[], StoreFailure>
  /** Deletes a hook and its logs; `false` when there was none. */
  deleteHook(id: number): ResultAsync<boolean, StoreFailure>
  /** Records a delivery attempt of an existing hook, with an id above every id given before. */
  appendHookLog(draft: HookLogDraft): ResultAsync<HookLog, StoreFailure>
  /**
   * A hook's delivery attempts, newest first, one page (`page` from 1) and the total; with `statuses`,
   * only those whose `responseStatus` is one of them (GitLab's `status` filter; none given: all).
   */
  listHookLogs(
    hookId: number,
    page: number,
    perPage: number,
    statuses?: readonly HookLogStatus[],
  ): ResultAsync<StorePage<HookLog>, StoreFailure>
  /**
   * Records that the token was given the notice of `interval` at `at`, if it was not given it before:
   * `true` for the one call that recorded it (of any number of concurrent calls, across restarts),
   * `false` for every later one. The sender calls it before it sends, so a notice is sent at most once.
   */
  claimNotice(tokenId: number, interval: NoticeInterval, at: Date): ResultAsync<boolean, StoreFailure>
  /** The notices the token was given, with when (GitLab's sent-at columns). */
  noticesOf(tokenId: number): ResultAsync<ReadonlyMap<NoticeInterval, Date>, StoreFailure>
}

/**
 * An audit event to record: GitLab's `audit_events` row. `entityType` is `User`, `Project` or `Group`
 * (the scope the event belongs to); `details` is its JSON details (`custom_message`, `author_name`,
 * `target_id`, `target_type`, `target_details`, `event_name`, ...).
 *
 * @example
 * ```ts
 * import type { AuditEventDraft } from 'patkit/store'
 * const draft: AuditEventDraft = {
 *   authorId: 1, entityType: 'User', entityId: 1, eventName: 'personal_access_token_revoked',
 *   details: { custom_message: 'Revoked personal access token with id 5' },
 *   createdAt: new Date('2026-01-01T00:00:00Z'),
 * }
 * ```
 */
export interface AuditEventDraft {
  readonly authorId: number
  readonly entityType: 'User' | 'Project' | 'Group'
  readonly entityId: number
  readonly eventName: string
  readonly details: Readonly<Record<string, unknown>>
  readonly createdAt: Date
}

/**
 * A stored audit event.
 *
 * @example
 * ```ts
 * import type { AuditEvent } from 'patkit/store'
 * const byAdmin = (event: AuditEvent) => event.authorId === 1
 * ```
 */
export interface AuditEvent extends AuditEventDraft {
  readonly id: number
}

/**
 * Which audit events `listAuditEvents` returns: each given field must match; `createdAfter` and
 * `createdBefore` are inclusive; `authorId` keeps one author's (GitLab's own-events-only reading).
 *
 * @example
 * ```ts
 * import type { AuditEventFilter } from 'patkit/store'
 * const filter: AuditEventFilter = { entityType: 'Project', entityId: 7 }
 * ```
 */
export interface AuditEventFilter {
  readonly createdAfter?: Date
  readonly createdBefore?: Date
  readonly entityType?: AuditEventDraft['entityType']
  readonly entityId?: number
  readonly authorId?: number
}

/**
 * Where a store keeps audit events (`store.resources.audit`); `replaceAll` empties it.
 *
 * @example
 * ```ts
 * import { memoryStore } from 'patkit/memory'
 *
 * const audit = memoryStore().resources?.audit
 * const page = await audit?.listAuditEvents({ entityType: 'User', entityId: 1 }, 1, 20)
 * ```
 */
export interface AuditStore {
  /** Records an event with an id above every id given before. */
  appendAuditEvent(draft: AuditEventDraft): ResultAsync<AuditEvent, StoreFailure>
  /** The event with this id, or `null`. */
  findAuditEvent(id: number): ResultAsync<AuditEvent | null, StoreFailure>
  /** The matching events, newest first (by id), one page (`page` from 1) and the total. */
  listAuditEvents(
    filter: AuditEventFilter,
    page: number,
    perPage: number,
  ): ResultAsync<StorePage<AuditEvent>, StoreFailure>
}
