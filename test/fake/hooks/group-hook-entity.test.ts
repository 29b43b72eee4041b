import { expect, it } from 'vitest'
import { call, startWorld } from './world.js'

// EE::API::Entities::GroupHook (ee/lib/ee/api/entities/group_hook.rb, index id 22427925867; the version
// with `resource_access_token_events` and without `milestone_events`, as ee/lib/api/group_hooks.rb's
// parameters of that time): after Hook's fields, these, in this order.
const GROUP_HOOK_FIELDS = [
  'group_id',
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

it('a group hook has the fields of EE’s GroupHook entity after Hook’s, in its order', async () => {
  const gitlab = await startWorld()
  const created = await call(gitlab, 'owner', 'POST', '/groups/1/hooks', { url: 'http://127.0.0.1:9/hook' })
  expect(created.status).toBe(201)
  const keys = Object.keys((await created.json()) as Record<string, unknown>)
  expect(keys.slice(keys.indexOf('group_id'))).toEqual(GROUP_HOOK_FIELDS)
  const listed = (await (await call(gitlab, 'owner', 'GET', '/groups/1/hooks')).json()) as Record<
    string,
    unknown
  >[]
  const listedKeys = Object.keys(listed[0] ?? {})
  expect(listedKeys.slice(listedKeys.indexOf('group_id'))).toEqual(GROUP_HOOK_FIELDS)
})
