import { errAsync, okAsync, type Result, ResultAsync } from 'neverthrow'
import { forbidden, notFound } from '../../domain/error-constructors.js'
import type { StoreFailure } from '../../domain/errors.js'
import type { ResourceType } from '../../domain/resource.js'
import { type Pagination, paginate } from '../../query/pagination.js'
import type { AuditEvent, AuditEventFilter, AuditStore } from '../../store/hook-store.js'
import type { AuthorityDeps } from '../core/deps.js'
import { type Actor, actsAsAdmin } from '../core/principal.js'
import { READ_SCOPES, requireScope } from '../core/scope-policy.js'
import { type HookOwnerError, hookOwner } from './hook-owner.js'

/**
 * Whose audit events are read: the instance's (administrators), or one project's or group's.
 *
 * @example
 * ```ts
 * import type { AuditScope } from 'patkit/authority'
 * const scope: AuditScope = { type: 'group', ref: 'acme' }
 * ```
 */
export type AuditScope = { readonly type: 'instance' } | { readonly type: ResourceType; readonly ref: string }

/**
 * One page of audit events and GitLab's pagination numbers.
 *
 * @example
 * ```ts
 * import type { AuditEventPage } from 'patkit/authority'
 * declare const page: AuditEventPage
 * page.items[0]?.eventName // 'personal_access_token_created'
 * ```
 */
export interface AuditEventPage {
  readonly items: readonly AuditEvent[]
  readonly pagination: Pagination
}

/**
 * Every way reading audit events fails: `forbidden` for a caller who may read none, `not_found` for
 * a resource they may not see or an event they may not read (GitLab's `404 Not found`).
 *
 * @example
 * ```ts
 * import type { AuditError } from 'patkit/authority'
 * const e: AuditError = { type: 'forbidden' }
 * ```
 */
export type AuditError = HookOwnerError

/**
 * GitLab's audit event API (EE `/audit_events`, `/groups/:id/audit_events`,
 * `/projects/:id/audit_events`), `authority.audit`: the instance's events for administrators; a
 * group's for its Owners, a project's for its Maintainers, and to other members (Developers and up)
 * only the events they authored.
 *
 * @example
 * ```ts
 * import type { AuditMethods } from 'patkit/authority'
 * declare const audit: AuditMethods
 * const page = await audit.list(principal, { type: 'project', ref: '7' }, {}, { page: 1, perPage: 20 })
 * ```
 */
export interface AuditMethods {
  /** Newest first. For a project or group, the filter's entity is the resource itself. */
  list(
    principal: Actor,
    scope: AuditScope,
    filter: AuditEventFilter,
    page: { readonly page: number; readonly perPage: number },
  ): ResultAsync<AuditEventPage, AuditError>
  get(principal: Actor, scope: AuditScope, id: string): ResultAsync<AuditEvent, AuditError>
}

/** What a caller may read in a scope: every event matching `filter`, or only theirs (`authorId`). */
interface Readable {
  readonly audit: AuditStore
  readonly filter: AuditEventFilter
  readonly authorId: number | null
}

// Owners of a group, Maintainers of a project see all; Developers and up their own (EE's policies enable
// :read_project_audit_events and :read_group_audit_events for developers; Reporters and Guests 403).
const ALL = { project: 40, group: 50 } as const
const OWN = { project: 30, group: 30 } as const

function readable(
  deps: AuthorityDeps,
  principal: Actor,
  scope: AuditScope,
): ResultAsync<Readable, AuditError> {
  const scoped = requireScope(principal, READ_SCOPES)
  if (scoped.isErr()) return errAsync(scoped.error)
  const audit = deps.store.resources?.audit
  if (scope.type === 'instance') {
    if (!actsAsAdmin(principal) || audit === undefined) return errAsync(forbidden())
    return okAsync({ audit, filter: {}, authorId: null })
  }
  return hookOwner(deps, principal, scope.type, scope.ref, READ_SCOPES, null).andThen((owner) => {
    const filter: AuditEventFilter = {
      entityType: scope.type === 'project' ? 'Project' : 'Group',
      entityId: owner.ref.id,
    }
    const level = owner.access ?? 0
    if (owner.admin || level >= ALL[scope.type]) {
      return okAsync({ audit: owner.resources.audit, filter, authorId: null })
    }
    if (owner.userId !== null && level >= OWN[scope.type]) {
      return okAsync({ audit: owner.resources.audit, filter, authorId: owner.userId })
    }
    return errAsync(forbidden())
  })
}

// The store filters and counts by author: the page and its total are the caller's own events.
async function pageOf(
  { audit, filter, authorId }: Readable,
  page: number,
  perPage: number,
): Promise<Result<AuditEventPage, StoreFailure>> {
  const stored = await audit.listAuditEvents(
    authorId === null ? filter : { ...filter, authorId },
    page,
    perPage,
  )
  return stored.map(({ items, total }) => ({ items, pagination: paginate(total, { page, perPage }) }))
}

function matches(event: AuditEvent, { filter, authorId }: Readable): boolean {
  if (authorId !== null && event.authorId !== authorId) return false
  if (filter.entityType !== undefined && event.entityType !== filter.entityType) return false
  return filter.entityId === undefined || event.entityId === filter.entityId
}

/** The audit methods over resolved dependencies. */
export function auditMethods(deps: AuthorityDeps): AuditMethods {
  const methods: AuditMethods = {
    list: (principal, scope, filter, { page, perPage }) =>
      readable(deps, principal, scope).andThen(
        (found) =>
          new ResultAsync(pageOf({ ...found, filter: { ...filter, ...found.filter } }, page, perPage)),
      ),
    get: (principal, scope, id) =>
      readable(deps, principal, scope).andThen((found) =>
        found.audit
          .findAuditEvent(/^\d{1,15}$/.test(id) ? Number(id) : 0)
          .andThen((event) =>
            event !== null && matches(event, found) ? okAsync(event) : errAsync(notFound('token')),
          ),
      ),
  }
  return Object.freeze(methods)
}
