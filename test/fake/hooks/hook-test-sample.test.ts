import { afterEach, expect, it } from 'vitest'
import type { FakeGitLab } from '../../../src/fake/index.js'
import { addHook, type Receiver, receiver, world } from './expiry-world.js'

// The sample `POST /projects/:id/hooks/:hook_id/test/resource_access_token_events` sends is GitLab's:
// TestHooks::ProjectService maps the trigger to Integrations::ProjectTestData#access_tokens_events_data
// (gitlabhq, index ids 705021725 and 1000753539), which builds
//   PersonalAccessToken.new(id: 1, name: 'pat_for_webhook_event', user: project.bots.first,
//                           created_at: Time.zone.now, expires_at: 2.days.from_now)
// and passes it to Gitlab::DataBuilder::ResourceAccessToken.build(token, :expiring, project): the
// builder without the `data` argument, so the sample has no `interval` (unlike the worker's
// ResourceAccessTokenPayload.build(..., {interval: ...}), which merges it last).
// The test trigger sends inline (`force: true`), not through Sidekiq, so its live Time values are JSON-encoded
// by ActiveSupport, ISO 8601 with milliseconds, where the worker's deliveries carry Time#to_s ("... UTC"):
// GitLab issues 545108 ("Webhook test events have different time formats than actual events":
// "2025-05-21 16:06:02 UTC" against "2025-05-21T16:06:02.869Z") and 263111.

const open: { gitlab: FakeGitLab; r: Receiver }[] = []
afterEach(async () => {
  for (const { gitlab, r } of open.splice(0)) {
    await gitlab.close()
    await r.close()
  }
})

async function sample(path: (hook: number) => string, resource: { type: 'project' | 'group'; id: number }) {
  const r = await receiver()
  const gitlab = await world()
  open.push({ gitlab, r })
  gitlab.clock.set(new Date('2026-01-01T22:30:05.250Z'))
  const hook = await addHook(gitlab, r.url, resource, 'T')
  const root = await gitlab.issueToken({ userId: 1, name: 'admin', scopes: ['api'] })
  const answer = await fetch(`${gitlab.apiUrl}${path(hook)}`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': root.secret },
  })
  expect(answer.status).toBe(201)
  return r.received[0]?.body
}

it("a project hook's test sample is GitLab's: token 1 'pat_for_webhook_event' of the project's bot, expiring in 2 days, no interval", async () => {
  const body = await sample((h) => `/projects/7/hooks/${h}/test/resource_access_token_events`, {
    type: 'project',
    id: 7,
  })
  expect(Object.keys(body ?? {})).toEqual(['object_kind', 'project', 'object_attributes', 'event_name'])
  expect(body?.['object_attributes']).toEqual({
    user_id: 10,
    created_at: '2026-01-01T22:30:05.250Z',
    id: 1,
    name: 'pat_for_webhook_event',
    // 2.days.from_now on a date column: the UTC day two days on.
    expires_at: '2026-01-03',
    last_used_at: null,
  })
})

it("a group hook's test sample names the group's bot and has the same token", async () => {
  const body = await sample((h) => `/groups/2/hooks/${h}/test/resource_access_token_events`, {
    type: 'group',
    id: 2,
  })
  expect(body?.['group']).toMatchObject({ group_id: 2 })
  expect(body?.['interval']).toBeUndefined()
  expect(body?.['object_attributes']).toMatchObject({ user_id: 11, id: 1, name: 'pat_for_webhook_event' })
})

it('a project without a bot: user_id is null, as project.bots.first is nil', async () => {
  const r = await receiver()
  const gitlab = await world()
  open.push({ gitlab, r })
  const resources = gitlab.store.resources
  if (resources === undefined) throw new Error('no resources')
  const project = (await resources.findProject(7))._unsafeUnwrap()
  if (project === null) throw new Error('project 7')
  await resources.putProject({ ...project, id: 8, path: 'web', name: 'Web', fullPath: 'acme/platform/web' })
  const hook = await addHook(gitlab, r.url, { type: 'project', id: 8 }, 'W')
  const root = await gitlab.issueToken({ userId: 1, name: 'admin', scopes: ['api'] })
  const answer = await fetch(`${gitlab.apiUrl}/projects/8/hooks/${hook}/test/resource_access_token_events`, {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': root.secret },
  })
  expect(answer.status).toBe(201)
  expect(r.received[0]?.body['object_attributes']).toMatchObject({ user_id: null, id: 1 })
})
