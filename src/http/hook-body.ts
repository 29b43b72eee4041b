import { err, ok, type Result } from 'neverthrow'
import { hasFeature, type Release } from '../authority/core/release.js'
import type { HookRequest } from '../authority/hooks/hook-methods.js'
import { invalidParameter } from '../domain/error-constructors.js'
import type { ResourceType } from '../domain/resource.js'
import { GRAPE_FALSE_VALUES, GRAPE_TRUE_VALUES } from '../query/grape-coercions.js'
import type { BodyParams } from './request-body.js'
import { grapeFailures, type InvalidParameter, optionalString } from './request-params.js'

// lib/api/project_hooks.rb `common_hook_parameters` (Boolean event flags), in declaration order.
const PROJECT_EVENTS = [
  'push_events',
  'issues_events',
  'confidential_issues_events',
  'merge_requests_events',
  'tag_push_events',
  'note_events',
  'confidential_note_events',
  'job_events',
  'pipeline_events',
  'wiki_page_events',
  'deployment_events',
  'feature_flag_events',
  'releases_events',
  'milestone_events',
  'emoji_events',
  'resource_access_token_events',
  'vulnerability_events',
] as const

// ee/lib/api/group_hooks.rb: the project's flags without milestone_events, with the group's own.
const GROUP_EVENTS = [
  ...PROJECT_EVENTS.filter((name) => name !== 'milestone_events'),
  'project_events',
  'subgroup_events',
  'member_events',
] as const

/** The event flags a hook of a project or group takes, by GitLab's parameter names. */
export const HOOK_EVENTS: Readonly<Record<ResourceType, readonly string[]>> = {
  project: PROJECT_EVENTS,
  group: GROUP_EVENTS,
}

// Accepted as GitLab declares them and not kept (docs/webhooks.md): patkit sends no push or template.
const ACCEPTED_ONLY = [
  'push_events_branch_filter',
  'branch_filter_strategy',
  'custom_webhook_template',
  'url_variables',
  'custom_headers',
]

/** Every body parameter of `POST`/`PUT .../hooks` for a source type. */
export function hookParams(type: ResourceType): readonly string[] {
  return [
    'url',
    'name',
    'description',
    'token',
    'enable_ssl_verification',
    ...HOOK_EVENTS[type],
    ...ACCEPTED_ONLY,
  ]
}

// Grape's Boolean: true, false, their words as text in any case; `''` and `null` are nil (not given).
function grapeBoolean(body: BodyParams, name: string): Result<boolean | undefined, InvalidParameter> {
  const value = body[name]
  if (value === undefined || value === null || value === '') return ok(undefined)
  if (typeof value === 'boolean') return ok(value)
  const text = String(value).toLowerCase()
  if ((GRAPE_TRUE_VALUES as readonly string[]).includes(text)) return ok(true)
  if ((GRAPE_FALSE_VALUES as readonly string[]).includes(text)) return ok(false)
  return err(invalidParameter(name, 'invalid'))
}

/**
 * The body of `POST` (`create`: `url` required) or `PUT .../hooks[/:hook_id]`: Grape's failures
 * together, in declaration order. An event flag the emulated release does not declare
 * (`resource_access_token_events` before 16.10) is ignored, as Grape ignores undeclared parameters.
 */
export function parseHookBody(
  body: BodyParams,
  type: ResourceType,
  release: Release,
  create: boolean,
): Result<HookRequest, InvalidParameter> {
  const failures: InvalidParameter[] = []
  const text = (name: string): string | undefined => {
    const value = optionalString(body, name)
    if (value.isErr()) failures.push(value.error)
    return value.unwrapOr(undefined)
  }
  const url = text('url')
  if (create && (url === undefined || url === '')) failures.push(invalidParameter('url', 'missing'))
  const name = text('name')
  const description = text('description')
  const token = text('token')
  const events: Record<string, boolean> = {}
  for (const event of HOOK_EVENTS[type]) {
    const value = grapeBoolean(body, event)
    if (value.isErr()) failures.push(value.error)
    else if (value.value !== undefined && declared(event, release)) events[event] = value.value
  }
  const ssl = grapeBoolean(body, 'enable_ssl_verification')
  if (ssl.isErr()) failures.push(ssl.error)
  const failed = grapeFailures(failures)
  if (failed.isErr()) return err(failed.error)
  return ok({
    ...(url === undefined ? {} : { url }),
    ...(name === undefined ? {} : { name }),
    ...(description === undefined ? {} : { description }),
    ...(token === undefined ? {} : { token }),
    ...(ssl.isOk() && ssl.value !== undefined ? { enableSslVerification: ssl.value } : {}),
    events,
  })
}

/** Whether the emulated release declares an event flag. */
export function declared(event: string, release: Release): boolean {
  return event !== 'resource_access_token_events' || hasFeature('resource_access_token_events', release)
}

/** Whether a `PUT` body gives any parameter the route declares (else `No parameters provided`). */
export function givesParameters(body: BodyParams, type: ResourceType): boolean {
  const known = hookParams(type)
  return Object.entries(body).some(([key, value]) => known.includes(key) && value !== undefined)
}
