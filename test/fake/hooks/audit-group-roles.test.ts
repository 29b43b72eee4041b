import { expect, it } from 'vitest'
import { call, startWorld, WORLD } from './world.js'

// Who reads a group's audit events, from GitLab's source: EE's GroupPolicy enables
// :read_group_audit_events for `developer` (ee/app/policies/ee/group_policy.rb, index id 122030721), and
// EE's API::Groups spec (ee/spec/requests/api/groups_spec.rb, index id 2562793709) has
// `GET group/:id/audit_events` and `.../:audit_event_id` behave as 'inaccessable by reporter role and
// lower' (403 for a Reporter, a Guest and a non-member), a Developer read only the events they authored
// (another's by id is 404), and an Owner read them all.

const GROUP_MEMBERS = [
  { user_id: 2, access_level: 50 }, // owner
  { user_id: 3, access_level: 30 }, // maintainer of the world, a Developer of this group
  { user_id: 4, access_level: 20 }, // developer of the world, a Reporter of this group
  { user_id: 5, access_level: 10 }, // guest, a Guest of this group
]

it('a group’s audit events: Reporters and Guests 403 Forbidden, a Developer only their own, the Owner all', async () => {
  const group = WORLD.groups?.[0]
  expect(group).toBeDefined()
  if (group === undefined) return
  const gitlab = await startWorld({ groups: [{ ...group, members: GROUP_MEMBERS }] })
  const created = await call(gitlab, 'owner', 'POST', '/groups/1/access_tokens', {
    name: 'g',
    scopes: ['api'],
    expires_at: '2026-03-01',
  })
  expect(created.status).toBe(201)
  const answers = async (who: 'owner' | 'maintainer' | 'developer' | 'guest', path: string) => {
    const answer = await call(gitlab, who, 'GET', path)
    return { status: answer.status, body: (await answer.json()) as unknown }
  }
  const authors = (body: unknown) => (body as { author_id: number }[]).map((e) => e.author_id)

  const owner = await answers('owner', '/groups/1/audit_events')
  expect({ status: owner.status, authors: authors(owner.body) }).toEqual({ status: 200, authors: [2] })
  const developer = await answers('maintainer', '/groups/1/audit_events')
  expect({ status: developer.status, authors: authors(developer.body) }).toEqual({ status: 200, authors: [] })
  expect((await answers('maintainer', '/groups/1/audit_events/1')).status).toBe(404)
  for (const who of ['developer', 'guest'] as const) {
    expect(await answers(who, '/groups/1/audit_events'), who).toEqual({
      status: 403,
      body: { message: '403 Forbidden' },
    })
    expect((await answers(who, '/groups/1/audit_events/1')).status, who).toBe(403)
  }
})
