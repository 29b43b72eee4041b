import { WRITE_SCOPES } from '../authority/core/scope-policy.js'
import type { ResourceRef, ResourceType } from '../domain/resource.js'
import { errorReply } from './error-response.js'
import { type PathInput, pathRoute } from './path-params.js'
import { error, message, type Reply } from './responses.js'
import type { RouteRow } from './route.js'

/**
 * What a hook test made: `not_found` for no such hook of the resource; `sent` with whether the receiver
 * answered 2xx and the answer's body (or why there was none); `failed` when the attempt could not be
 * made at all.
 *
 * @example
 * ```ts
 * import type { HookTestResult } from 'patkit/http'
 * const result: HookTestResult = { kind: 'sent', ok: false, message: 'Internal Server Error' }
 * ```
 */
export type HookTestResult =
  | { readonly kind: 'not_found' }
  | { readonly kind: 'sent'; readonly ok: boolean; readonly message: string }
  | { readonly kind: 'failed'; readonly message: string }

/**
 * Sends a hook's test payload of a trigger (GitLab's `TestHooks::ProjectService`): the fake's webhook
 * sender, given to the handler as `HandlerOptions.hookTester`.
 *
 * @example
 * ```ts
 * import type { HookTester } from 'patkit/http'
 * const never: HookTester = async () => ({ kind: 'not_found' })
 * ```
 */
export type HookTester = (resource: ResourceRef, hookId: number, trigger: string) => Promise<HookTestResult>

// ProjectHook.triggers (app/models/hooks/project_hook.rb): the `:trigger` values the route takes; the
// group's add member_hooks and subgroup_hooks (ee/app/models/hooks/group_hook.rb).
const PROJECT_TRIGGERS = [
  'confidential_issues_events',
  'confidential_note_events',
  'deployment_events',
  'emoji_events',
  'feature_flag_events',
  'issues_events',
  'job_events',
  'merge_requests_events',
  'note_events',
  'pipeline_events',
  'push_events',
  'releases_events',
  'resource_access_token_events',
  'tag_push_events',
  'wiki_page_events',
] as const
const TRIGGERS: Readonly<Record<ResourceType, readonly string[]>> = {
  project: PROJECT_TRIGGERS,
  group: [...PROJECT_TRIGGERS, 'member_events', 'subgroup_events'],
}
// The one trigger patkit has a sample for: it keeps no repository, issue or pipeline.
const SERVED_TRIGGER = 'resource_access_token_events'

// As sent: the resource's finder decides `:id`, the trigger is checked against GitLab's values after
// the caller is authorised, and a `:hook_id` that is no number finds no hook.
const TEST_PATH = { id: 'string', hook_id: 'string', trigger: 'string' } as const

function rowFor(type: ResourceType): RouteRow {
  return pathRoute({
    method: 'POST',
    path: `/${type}s/:id/hooks/:hook_id/test/:trigger`,
    pathParams: TEST_PATH,
    scopes: WRITE_SCOPES,
    permission: { name: 'trigger_webhook', boundary: type, ref: 'id' },
    serve: (input) => testHook(type, input),
  })
}

/**
 * `POST /{projects,groups}/:id/hooks/:hook_id/test/:trigger` (lib/api/hooks/trigger_test.rb): 201 when
 * the receiver answered 2xx, else 422 with its answer's body or the error's text.
 */
export const HOOK_TEST_ROUTES: readonly RouteRow[] = [rowFor('project'), rowFor('group')]

async function testHook(type: ResourceType, input: PathInput<typeof TEST_PATH>): Promise<Reply> {
  const { authority, principal, pathValues } = input
  const managed = await authority.hooks.manage(principal, type, pathValues.id)
  if (managed.isErr()) return errorReply(managed.error)
  const { trigger } = pathValues
  if (!TRIGGERS[type].includes(trigger)) return error(400, 'trigger does not have a valid value')
  const hookId = /^\d{1,15}$/.test(pathValues.hook_id) ? Number(pathValues.hook_id) : null
  const tester = input.hookTester
  if (hookId === null || tester === undefined) return message(404, '404 Not found')
  if (trigger !== SERVED_TRIGGER)
    return message(422, `patkit sends test payloads of ${SERVED_TRIGGER} only, not of ${trigger}`)
  const result = await tester(managed.value, hookId, trigger)
  if (result.kind === 'not_found') return message(404, '404 Not found')
  if (result.kind === 'failed') return message(422, result.message)
  return result.ok ? message(201, '201 Created') : message(422, result.message)
}
