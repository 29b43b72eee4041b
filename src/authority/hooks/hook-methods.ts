import { err, errAsync, ok, okAsync, type Result, ResultAsync } from 'neverthrow'
import { notFound, validationFailed } from '../../domain/error-constructors.js'
import type { ErrorOf, StoreFailure } from '../../domain/errors.js'
import type { AccessLevel, ResourceRef, ResourceType } from '../../domain/resource.js'
import { type Pagination, paginate } from '../../query/pagination.js'
import type { HookLogStatus } from '../../store/hook-log-status.js'
import type { Hook, HookLog } from '../../store/hook-store.js'
import type { AuthorityDeps } from '../core/deps.js'
import { writing } from '../core/grace-window.js'
import type { Actor } from '../core/principal.js'
import { READ_SCOPES, WRITE_SCOPES } from '../core/scope-policy.js'
import { type HookOwner, type HookOwnerError, hookOwner } from './hook-owner.js'

/**
 * What a hook is created or updated with (GitLab's `POST`/`PUT .../hooks` parameters as far as
 * patkit keeps them): `url` is required on create; `token` is the secret sent as `X-Gitlab-Token`
 * (`null` or empty: none), sealed before it is stored; `events` every event flag given, by name.
 *
 * @example
 * ```ts
 * import type { HookRequest } from 'patkit/authority'
 * const request: HookRequest = { url: 'http://127.0.0.1:9000/hook', events: { resource_access_token_events: true } }
 * ```
 */
export interface HookRequest {
  readonly url?: string
  readonly name?: string | null
  readonly description?: string | null
  readonly token?: string | null
  readonly enableSslVerification?: boolean
  readonly events: Readonly<Record<string, boolean>>
}

/**
 * Every way a hook method fails: `not_found` for a resource the caller may not see (`404 Project Not
 * Found`) or a hook it does not have (`entity: 'token'`, GitLab's `404 Not found`); `forbidden` below
 * Maintainer (projects) or Owner (groups); `validation_failed` for GitLab's `Invalid url given`.
 *
 * @example
 * ```ts
 * import type { HookError } from 'patkit/authority'
 * const e: HookError = { type: 'validation_failed', message: 'Invalid url given' }
 * ```
 */
export type HookError = HookOwnerError | ErrorOf<'validation_failed' | 'token_revoked'>

/**
 * One page of a hook's delivery attempts and GitLab's pagination numbers.
 *
 * @example
 * ```ts
 * import type { HookLogPage } from 'patkit/authority'
 * declare const page: HookLogPage
 * page.items[0]?.responseStatus // '200'
 * ```
 */
export interface HookLogPage {
  readonly items: readonly HookLog[]
  readonly pagination: Pagination
}

export type { HookLogStatus }

/**
 * The webhooks of projects and groups (GitLab's `/projects/:id/hooks`, `/groups/:id/hooks`),
 * `authority.hooks`: a Maintainer of the project, an Owner of the group, or an administrator.
 *
 * @example
 * ```ts
 * import type { HookMethods } from 'patkit/authority'
 * declare const hooks: HookMethods
 * await hooks.create(principal, 'project', '7', { url: 'http://127.0.0.1:9000/hook', events: {} })
 * ```
 */
export interface HookMethods {
  /** The resource's hooks, in id order. */
  list(principal: Actor, type: ResourceType, ref: string): ResultAsync<readonly Hook[], HookError>
  get(principal: Actor, type: ResourceType, ref: string, hookId: string): ResultAsync<Hook, HookError>
  create(
    principal: Actor,
    type: ResourceType,
    ref: string,
    request: HookRequest,
  ): ResultAsync<Hook, HookError>
  /** Changes only what the request gives; its events are merged into the hook's. */
  update(
    principal: Actor,
    type: ResourceType,
    ref: string,
    hookId: string,
    request: HookRequest,
  ): ResultAsync<Hook, HookError>
  delete(principal: Actor, type: ResourceType, ref: string, hookId: string): ResultAsync<void, HookError>
  /**
   * The project or group whose hooks the caller may manage (a write scope; Maintainer of a project,
   * Owner of a group, or an administrator), as the hook test route asks before it reads its trigger.
   */
  manage(principal: Actor, type: ResourceType, ref: string): ResultAsync<ResourceRef, HookError>
  /** A hook's delivery attempts, newest first; `statuses` empty: all. */
  logs(
    principal: Actor,
    type: ResourceType,
    ref: string,
    hookId: string,
    request: { readonly statuses: readonly HookLogStatus[]; readonly page: number; readonly perPage: number },
  ): ResultAsync<HookLogPage, HookError>
}

// GitLab's docs: Maintainer for project hooks; group hooks were `authorize! :admin_group` (Owner).
const LEVEL: Record<ResourceType, AccessLevel> = { project: 40, group: 50 }

/** A URL a hook may have: absolute http(s) (GitLab's `PublicUrlValidator`, less its network rules). */
export function checkHookUrl(url: string): Result<string, ErrorOf<'validation_failed'>> {
  const invalid = err(validationFailed(HOOK_URL_INVALID))
  if (!URL.canParse(url)) return invalid
  const parsed = new URL(url)
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? ok(url) : invalid
}

/** GitLab's answer to every URL error of a hook's model (WebHooks::CreateService, save_hook). */
export const HOOK_URL_INVALID = 'Invalid url given'

// The model's checks in its order (`Invalid url given` first, WebHooks::CreateService and save_hook).
function checkHookFields(
  url: string | undefined,
  token: string | null | undefined,
): Result<void, ErrorOf<'validation_failed'>> {
  if (url !== undefined) {
    const checked = checkHookUrl(url)
    if (checked.isErr()) return err(checked.error)
  }
  return typeof token === 'string' && token.includes('\n')
    ? // `validates :token, format: { without: /\n/ }` (WebHooks::Hook), as Rails' full message.
      err(validationFailed('Token is invalid'))
    : ok(undefined)
}

function owner(
  deps: AuthorityDeps,
  principal: Actor,
  type: ResourceType,
  ref: string,
  scopes: readonly string[],
): ResultAsync<HookOwner, HookError> {
  return hookOwner(deps, principal, type, ref, scopes, LEVEL[type])
}

// `hook_scope.find(hook_id)`: a hook of another resource, or none, is ActiveRecord's 404.
function hookOf(found: HookOwner, hookId: string): ResultAsync<Hook, HookError> {
  const id = /^\d{1,15}$/.test(hookId) ? Number(hookId) : 0
  return found.resources.hooks
    .findHook(id)
    .andThen((hook) =>
      hook !== null && hook.resource.type === found.ref.type && hook.resource.id === found.ref.id
        ? okAsync(hook)
        : errAsync(notFound('token')),
    )
}

function sealedTokenOf(deps: AuthorityDeps, token: string | null | undefined): string | null {
  if (token === undefined || token === null || token === '') return null
  return deps.sealHookToken(token)
}

function createHook(
  deps: AuthorityDeps,
  principal: Actor,
  type: ResourceType,
  ref: string,
  request: HookRequest,
): ResultAsync<Hook, HookError> {
  return owner(deps, principal, type, ref, WRITE_SCOPES).andThen((found) => {
    const url = request.url ?? ''
    const checked = checkHookFields(url, request.token)
    if (checked.isErr()) return errAsync(checked.error)
    return found.resources.hooks.insertHook({
      resource: found.ref,
      url,
      name: request.name ?? null,
      description: request.description ?? null,
      sealedToken: sealedTokenOf(deps, request.token),
      // GitLab's column defaults: push_events true, every other event false.
      events: { push_events: true, ...request.events },
      enableSslVerification: request.enableSslVerification ?? true,
      createdAt: deps.clock.now(),
    })
  })
}

function updateHook(
  deps: AuthorityDeps,
  principal: Actor,
  type: ResourceType,
  ref: string,
  hookId: string,
  request: HookRequest,
): ResultAsync<Hook, HookError> {
  return owner(deps, principal, type, ref, WRITE_SCOPES).andThen((found) =>
    hookOf(found, hookId).andThen((hook) => {
      const checked = checkHookFields(request.url, request.token)
      if (checked.isErr()) return errAsync(checked.error)
      const url = request.url ?? hook.url
      return found.resources.hooks
        .updateHook({
          ...hook,
          url,
          name: request.name === undefined ? hook.name : request.name,
          description: request.description === undefined ? hook.description : request.description,
          sealedToken:
            request.token !== undefined
              ? sealedTokenOf(deps, request.token)
              : // GitLab's `reset_token`: a new URL without a new token drops the secret
                // (`self.token = nil if url_changed? && !encrypted_token_changed?`, WebHooks::Hook).
                url !== hook.url
                ? null
                : hook.sealedToken,
          events: { ...hook.events, ...request.events },
          enableSslVerification: request.enableSslVerification ?? hook.enableSslVerification,
        })
        .andThen((updated) => (updated === null ? errAsync(notFound('token')) : okAsync(updated)))
    }),
  )
}

// The store filters and counts by status: the page and its total are the matching logs'.
async function filteredLogs(
  found: HookOwner,
  hookId: number,
  statuses: readonly HookLogStatus[],
  page: number,
  perPage: number,
): Promise<Result<HookLogPage, StoreFailure>> {
  const stored = await found.resources.hooks.listHookLogs(hookId, page, perPage, statuses)
  return stored.map(({ items, total }) => ({ items, pagination: paginate(total, { page, perPage }) }))
}

/** The hook methods over resolved dependencies; writes refuse a token in its grace period. */
export function hookMethods(deps: AuthorityDeps): HookMethods {
  const methods: HookMethods = {
    list: (principal, type, ref) =>
      owner(deps, principal, type, ref, READ_SCOPES).andThen((found) =>
        found.resources.hooks.listHooks(found.ref),
      ),
    get: (principal, type, ref, hookId) =>
      owner(deps, principal, type, ref, READ_SCOPES).andThen((found) => hookOf(found, hookId)),
    manage: (principal, type, ref) =>
      owner(deps, principal, type, ref, WRITE_SCOPES).map((found) => found.ref),
    create: writing((principal: Actor, type: ResourceType, ref: string, request: HookRequest) =>
      createHook(deps, principal, type, ref, request),
    ),
    update: writing(
      (principal: Actor, type: ResourceType, ref: string, hookId: string, request: HookRequest) =>
        updateHook(deps, principal, type, ref, hookId, request),
    ),
    delete: writing((principal: Actor, type: ResourceType, ref: string, hookId: string) =>
      owner(deps, principal, type, ref, WRITE_SCOPES).andThen((found) =>
        hookOf(found, hookId).andThen((hook) =>
          found.resources.hooks.deleteHook(hook.id).map(() => undefined),
        ),
      ),
    ),
    logs: (principal, type, ref, hookId, { statuses, page, perPage }) =>
      owner(deps, principal, type, ref, READ_SCOPES).andThen((found) =>
        hookOf(found, hookId).andThen(
          (hook) => new ResultAsync(filteredLogs(found, hook.id, statuses, page, perPage)),
        ),
      ),
  }
  return Object.freeze(methods)
}
