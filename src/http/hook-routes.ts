import { err, ok, type Result } from 'neverthrow'
import { READ_SCOPES, requireScope, WRITE_SCOPES } from '../authority/core/scope-policy.js'
import { HOOK_URL_INVALID, type HookLogStatus } from '../authority/hooks/hook-methods.js'
import { invalidParameter } from '../domain/error-constructors.js'
import type { ResourceType } from '../domain/resource.js'
import { parseGrapeInteger } from '../query/grape-coercions.js'
import { errorReply } from './error-response.js'
import { givesParameters, hookParams, parseHookBody } from './hook-body.js'
import { hookJson, hookLogJson } from './hook-json.js'
import { paginationHeaders } from './pagination-headers.js'
import { type PathInput, pathRoute } from './path-params.js'
import { type InvalidParameter, lastValue } from './request-params.js'
import { json, message, noContent, type Reply } from './responses.js'
import type { CallerInput, RoutePermission, RouteRow } from './route.js'
import { validationReply } from './validation-reply.js'

// The project's or group's `:id` (an id or a full path) and a hook's `:hook_id`, as sent: the finders
// decide (a `:hook_id` that is no number finds no hook).
const HOOKS_PATH = { id: 'string' } as const
const HOOK_PATH = { id: 'string', hook_id: 'string' } as const

/**
 * GitLab's project hooks (lib/api/project_hooks.rb) and group hooks (EE ee/lib/api/group_hooks.rb, a
 * Premium feature served here), with their events log (lib/api/hooks/events.rb). A missing hook is
 * ActiveRecord's `404 Not found`.
 */
function rowsFor(type: ResourceType): RouteRow[] {
  const base = `/${type}s/:id/hooks`
  const params = hookParams(type)
  // Webhook: Read/Create/Update/Delete at the project or group (docs/reference/fine-grained-pats.md §8.1).
  const on = (name: string): RoutePermission => ({ name, boundary: type, ref: 'id' })
  return [
    pathRoute({
      method: 'GET',
      path: base,
      pathParams: HOOKS_PATH,
      scopes: READ_SCOPES,
      permission: on('read_webhook'),
      serve: (i) => list(type, i),
    }),
    pathRoute({
      method: 'POST',
      path: base,
      pathParams: HOOKS_PATH,
      params,
      scopes: WRITE_SCOPES,
      permission: on('create_webhook'),
      serve: (i) => create(type, i),
    }),
    pathRoute({
      method: 'GET',
      path: `${base}/:hook_id`,
      pathParams: HOOK_PATH,
      scopes: READ_SCOPES,
      permission: on('read_webhook'),
      serve: (i) => get(type, i),
    }),
    pathRoute({
      method: 'PUT',
      path: `${base}/:hook_id`,
      pathParams: HOOK_PATH,
      params,
      scopes: WRITE_SCOPES,
      permission: on('update_webhook'),
      serve: (i) => update(type, i),
    }),
    pathRoute({
      method: 'DELETE',
      path: `${base}/:hook_id`,
      pathParams: HOOK_PATH,
      params: [],
      scopes: WRITE_SCOPES,
      permission: on('delete_webhook'),
      serve: (i) => remove(type, i),
    }),
    pathRoute({
      method: 'GET',
      path: `${base}/:hook_id/events`,
      pathParams: HOOK_PATH,
      scopes: READ_SCOPES,
      permission: on('read_webhook'),
      serve: (i) => events(type, i),
    }),
  ]
}

/** The hook rows of both source types. */
export const HOOK_ROUTES: readonly RouteRow[] = [...rowsFor('project'), ...rowsFor('group')]

async function list(type: ResourceType, input: PathInput<typeof HOOKS_PATH>): Promise<Reply> {
  const { authority, principal, pathValues } = input
  const hooks = await authority.hooks.list(principal, type, pathValues.id)
  if (hooks.isErr()) return errorReply(hooks.error)
  return json(
    200,
    hooks.value.map((hook) => hookJson(hook, authority.settings.release, true)),
  )
}

async function get(type: ResourceType, input: PathInput<typeof HOOK_PATH>): Promise<Reply> {
  const { authority, principal, pathValues } = input
  const hook = await authority.hooks.get(principal, type, pathValues.id, pathValues.hook_id)
  if (hook.isErr()) return errorReply(hook.error, 'revoke_by_id')
  return json(200, hookJson(hook.value, authority.settings.release, false))
}

// GitLab's `authenticate!` (the token's scopes) runs in a `before` block, ahead of Grape's parameter checks.
function scopeFirst(principal: CallerInput['principal'], refusal: Reply): Reply {
  const scoped = requireScope(principal, WRITE_SCOPES)
  return scoped.isErr() ? errorReply(scoped.error) : refusal
}

async function create(type: ResourceType, input: PathInput<typeof HOOKS_PATH>): Promise<Reply> {
  const { authority, principal, params, pathValues } = input
  const request = parseHookBody(params, type, authority.settings.release, true)
  if (request.isErr()) return scopeFirst(principal, errorReply(request.error))
  const hook = await authority.hooks.create(principal, type, pathValues.id, request.value)
  if (hook.isErr()) return errorReply(hook.error, 'create')
  return json(201, hookJson(hook.value, authority.settings.release, false))
}

async function update(type: ResourceType, input: PathInput<typeof HOOK_PATH>): Promise<Reply> {
  const { authority, principal, params, pathValues } = input
  const request = parseHookBody(params, type, authority.settings.release, false)
  if (request.isErr()) return scopeFirst(principal, errorReply(request.error))
  // web_hooks_helpers.rb#update_hook: after the hook is found (and authorised).
  const { id, hook_id: hookId } = pathValues
  if (!givesParameters(params, type)) {
    const scoped = requireScope(principal, WRITE_SCOPES)
    if (scoped.isErr()) return errorReply(scoped.error)
    const found = await authority.hooks.get(principal, type, id, hookId)
    if (found.isErr()) return errorReply(found.error, 'revoke_by_id')
    return message(400, 'No parameters provided')
  }
  const hook = await authority.hooks.update(principal, type, id, hookId, request.value)
  if (hook.isErr()) {
    // save_hook answers a model error other than the URL's with `render_validation_error!(hook, 422)`.
    if (hook.error.type === 'validation_failed' && hook.error.message !== HOOK_URL_INVALID) {
      return validationReply(422, hook.error.message)
    }
    return errorReply(hook.error, hook.error.type === 'not_found' ? 'revoke_by_id' : 'create')
  }
  return json(200, hookJson(hook.value, authority.settings.release, false))
}

async function remove(type: ResourceType, input: PathInput<typeof HOOK_PATH>): Promise<Reply> {
  const { authority, principal, pathValues } = input
  const done = await authority.hooks.delete(principal, type, pathValues.id, pathValues.hook_id)
  return done.isOk() ? noContent() : errorReply(done.error, 'revoke_by_id')
}

const STATUS_WORDS = ['successful', 'client_failure', 'server_failure'] as const
const EVENTS_PER_PAGE = 20

// `status`: an array or a comma list of HTTP codes or of GitLab's words.
function statusesOf(params: URLSearchParams): Result<HookLogStatus[], InvalidParameter> {
  const raw = [...params.getAll('status'), ...params.getAll('status[]')].flatMap((v) => v.split(','))
  const statuses: HookLogStatus[] = []
  for (const part of raw.map((p) => p.trim()).filter((p) => p !== '')) {
    if ((STATUS_WORDS as readonly string[]).includes(part)) statuses.push(part as HookLogStatus)
    else if (/^\d{3}$/.test(part)) statuses.push(Number(part))
    else return err(invalidParameter('status', 'not_allowed_value'))
  }
  return ok(statuses)
}

// `per_page`: default 20, values 1..20 (lib/api/hooks/events.rb).
function pageOf(params: URLSearchParams): Result<{ page: number; perPage: number }, InvalidParameter> {
  const number = (name: string, fallback: number): Result<number, InvalidParameter> => {
    const value = lastValue(params, name)
    if (value === undefined || value === '') return ok(fallback)
    const parsed = parseGrapeInteger(value)
    return parsed.isErr() ? err(invalidParameter(name, 'invalid')) : ok(parsed.value)
  }
  const page = number('page', 1)
  if (page.isErr()) return err(page.error)
  const perPage = number('per_page', EVENTS_PER_PAGE)
  if (perPage.isErr()) return err(perPage.error)
  if (perPage.value < 1 || perPage.value > EVENTS_PER_PAGE) {
    return err(invalidParameter('per_page', 'not_allowed_value'))
  }
  return ok({ page: Math.max(1, page.value), perPage: perPage.value })
}

async function events(type: ResourceType, input: PathInput<typeof HOOK_PATH>): Promise<Reply> {
  const { authority, principal, pathValues, url, publicUrl } = input
  const statuses = statusesOf(url.searchParams)
  if (statuses.isErr()) return errorReply(statuses.error)
  const page = pageOf(url.searchParams)
  if (page.isErr()) return errorReply(page.error)
  const logs = await authority.hooks.logs(principal, type, pathValues.id, pathValues.hook_id, {
    statuses: statuses.value,
    ...page.value,
  })
  if (logs.isErr()) return errorReply(logs.error, 'revoke_by_id')
  return json(
    200,
    logs.value.items.map(hookLogJson),
    paginationHeaders(logs.value.pagination, url, publicUrl),
  )
}
