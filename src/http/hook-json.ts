import type { Release } from '../authority/core/release.js'
import type { Hook, HookLog } from '../store/hook-store.js'
import { declared } from './hook-body.js'

// lib/api/entities/project_hook.rb's fields after Hook's, in order.
const PROJECT_FIELDS = [
  'issues_events',
  'confidential_issues_events',
  'note_events',
  'confidential_note_events',
  'pipeline_events',
  'wiki_page_events',
  'deployment_events',
  'feature_flag_events',
  'job_events',
  'releases_events',
  'milestone_events',
  'emoji_events',
  'resource_access_token_events',
  'resource_deploy_token_events',
  'vulnerability_events',
]

// EE's GroupHook entity's fields after Hook's and group_id, in order (ee/lib/ee/api/entities/group_hook.rb,
// index id 22427925867; a later version adds milestone_events, which the group hook API here does not take).
const GROUP_FIELDS = [
  'issues_events',
  'confidential_issues_events',
  'note_events',
  'confidential_note_events',
  'pipeline_events',
  'wiki_page_events',
  'job_events',
  'deployment_events',
  'feature_flag_events',
  'releases_events',
  'subgroup_events',
  'emoji_events',
  'resource_access_token_events',
  'member_events',
  'vulnerability_events',
  'project_events',
]

const flag = (hook: Hook, name: string): boolean => hook.events[name] === true

/**
 * GitLab's ProjectHook / GroupHook entity (lib/api/entities/hook.rb and project_hook.rb): never the
 * token. The list leaves out `url_variables` and `custom_headers` (`with_url_variables: false`).
 */
export function hookJson(hook: Hook, release: Release, inList: boolean): Record<string, unknown> {
  const json: Record<string, unknown> = {
    id: hook.id,
    url: hook.url,
    name: hook.name,
    description: hook.description,
    created_at: hook.createdAt.toISOString(),
    push_events: flag(hook, 'push_events'),
    tag_push_events: flag(hook, 'tag_push_events'),
    merge_requests_events: flag(hook, 'merge_requests_events'),
    repository_update_events: flag(hook, 'repository_update_events'),
    enable_ssl_verification: hook.enableSslVerification,
    alert_status: 'executable',
    disabled_until: null,
  }
  if (!inList) json['url_variables'] = []
  json['push_events_branch_filter'] = null
  json['branch_filter_strategy'] = 'wildcard'
  json['custom_webhook_template'] = null
  if (!inList) json['custom_headers'] = []
  const project = hook.resource.type === 'project'
  json[project ? 'project_id' : 'group_id'] = hook.resource.id
  for (const name of project ? PROJECT_FIELDS : GROUP_FIELDS) {
    if (declared(name, release)) json[name] = flag(hook, name)
  }
  return json
}

// WebHookLog#request_headers: the secret is shown redacted, whatever was stored.
const REDACTED_HEADERS = ['x-gitlab-token']

/** GitLab's WebHookLog entity (lib/api/entities/web_hook_log.rb). */
export function hookLogJson(log: HookLog): Record<string, unknown> {
  const requestHeaders: Record<string, string> = {}
  for (const [name, value] of Object.entries(log.requestHeaders)) {
    requestHeaders[name] = REDACTED_HEADERS.includes(name.toLowerCase()) ? '[REDACTED]' : value
  }
  let requestData: unknown = log.requestData
  try {
    requestData = JSON.parse(log.requestData)
  } catch {
    // Stored as sent: not JSON.
  }
  return {
    id: log.id,
    url: log.url,
    trigger: log.trigger,
    request_headers: requestHeaders,
    request_data: requestData,
    response_headers: log.responseHeaders,
    response_body: log.responseBody,
    execution_duration: log.executionDuration,
    response_status: log.responseStatus,
    created_at: log.createdAt.toISOString(),
  }
}
