import { describe, expect, it } from 'vitest'
import { call, startWorld } from './world.js'

// Audit events recorded from token changes with GitLab's names and messages (EE
// PersonalAccessTokens::RevokeService index ids 3067002702/22283220994 and its spec 8825623990
// (revocation_source :self by default); EE ResourceAccessTokens::CreateService 2581472489 and
// RevokeService 988847300; no rotation event: RotateService revokes with `token.revoke!`), served by
// GET /audit_events (ee/lib/api/audit_events.rb, index id 5687959396) and the group and project ones
// (docs: gitlab-19-surface.md §6), as EE::API::Entities::AuditEvent (index ids 962505514, 61545240832).

async function createProjectToken(gitlab: Awaited<ReturnType<typeof startWorld>>) {
  const created = await call(gitlab, 'maintainer', 'POST', '/projects/7/access_tokens', {
    name: 'deploy',
    scopes: ['read_api'],
    access_level: 30,
    expires_at: '2026-03-01',
  })
  expect(created.status).toBe(201)
  return (await created.json()) as { id: number; user_id: number }
}

describe('token audit events', () => {
  it('records a personal access token created and revoked, under the acting user', async () => {
    const gitlab = await startWorld()
    const created = await call(gitlab, 'root', 'POST', '/users/2/personal_access_tokens', {
      name: 'made',
      scopes: ['api'],
      expires_at: '2026-02-01',
    })
    expect(created.status).toBe(201)
    const { id } = await created.json()
    expect((await call(gitlab, 'root', 'DELETE', `/personal_access_tokens/${id}`)).status).toBe(204)
    const answer = await call(gitlab, 'root', 'GET', '/audit_events')
    expect(answer.status).toBe(200)
    const events = await answer.json()
    expect(events).toHaveLength(2)
    expect(events[1]).toEqual({
      id: 1,
      author_id: 1,
      entity_id: 1,
      entity_type: 'User',
      event_name: 'personal_access_token_created',
      details: {
        event_name: 'personal_access_token_created',
        custom_message: `Created personal access token with id ${id}`,
        author_name: 'root',
        target_id: 2,
        target_type: 'User',
        target_details: 'owner',
      },
      created_at: '2026-01-01T00:00:00.000Z',
    })
    expect(events[0]).toMatchObject({
      id: 2,
      event_name: 'personal_access_token_revoked',
      details: { custom_message: `Revoked personal access token with id ${id}`, revocation_source: 'self' },
    })
    expect(answer.headers.get('x-total')).toBe('2')
  })

  it('records project and group access tokens created and deleted, under the resource', async () => {
    const gitlab = await startWorld()
    const token = await createProjectToken(gitlab)
    expect((await call(gitlab, 'maintainer', 'DELETE', `/projects/7/access_tokens/${token.id}`)).status).toBe(
      204,
    )
    const group = await call(gitlab, 'owner', 'POST', '/groups/1/access_tokens', {
      name: 'ci',
      scopes: ['api', 'read_api'],
      expires_at: '2026-03-01',
    })
    const groupToken = await group.json()
    await call(gitlab, 'owner', 'DELETE', `/groups/1/access_tokens/${groupToken.id}`)
    const project = await (await call(gitlab, 'maintainer', 'GET', '/projects/7/audit_events')).json()
    expect(project.map((e: { event_name: string }) => e.event_name)).toEqual([
      'project_access_token_deleted',
      'project_access_token_created',
    ])
    expect(project[1]).toMatchObject({
      author_id: 3,
      entity_type: 'Project',
      entity_id: 7,
      details: {
        custom_message: `Created project access token with token_id: ${token.id} with scopes: ["read_api"] and Developer access level.`,
        target_id: token.id,
        target_details: 'deploy',
      },
    })
    expect(project[0].details.custom_message).toBe(`Revoked project access token with token_id: ${token.id}`)
    const groupEvents = await (await call(gitlab, 'owner', 'GET', '/groups/1/audit_events')).json()
    expect(groupEvents.map((e: { details: { custom_message: string } }) => e.details.custom_message)).toEqual(
      [
        `Revoked group access token with token_id: ${groupToken.id}`,
        `Created group token with token_id: ${groupToken.id} with scopes: ["api", "read_api"].`,
      ],
    )
    expect(groupEvents[1]).toMatchObject({
      entity_type: 'Group',
      entity_id: 1,
      event_name: 'group_access_token_created',
    })
  })

  it('records nothing for a rotation, nor for tokens the seed or the control API put in place', async () => {
    const gitlab = await startWorld()
    const rotated = await call(gitlab, 'developer', 'POST', '/personal_access_tokens/self/rotate')
    expect(rotated.status).toBe(200)
    await gitlab.issueToken({ userId: 2, name: 'direct', scopes: ['api'] })
    const all = await (await call(gitlab, 'root', 'GET', '/audit_events')).json()
    expect(all).toEqual([])
  })

  it('is cleared by a reset', async () => {
    const gitlab = await startWorld()
    await createProjectToken(gitlab)
    expect(await (await call(gitlab, 'root', 'GET', '/audit_events')).json()).toHaveLength(1)
    await gitlab.reset()
    expect(await (await call(gitlab, 'root', 'GET', '/audit_events')).json()).toEqual([])
  })
})

describe('the audit event API', () => {
  it('/audit_events is for administrators only (403 Forbidden); one by id, 404 Not found when missing', async () => {
    const gitlab = await startWorld()
    await createProjectToken(gitlab)
    const refused = await call(gitlab, 'owner', 'GET', '/audit_events')
    expect(refused.status).toBe(403)
    expect(await refused.json()).toEqual({ message: '403 Forbidden' })
    expect((await call(gitlab, 'owner', 'GET', '/audit_events/1')).status).toBe(403)
    const one = await call(gitlab, 'root', 'GET', '/audit_events/1')
    expect(one.status).toBe(200)
    expect((await one.json()).event_name).toBe('project_access_token_created')
    const missing = await call(gitlab, 'root', 'GET', '/audit_events/9')
    expect(missing.status).toBe(404)
    expect(await missing.json()).toEqual({ message: '404 Not found' })
  })

  it('filters by entity_type and entity_id (which requires entity_type) and by dates', async () => {
    const gitlab = await startWorld()
    await createProjectToken(gitlab)
    gitlab.clock.set(new Date('2026-01-05T00:00:00.000Z'))
    await call(gitlab, 'root', 'POST', '/users/2/personal_access_tokens', {
      name: 'x',
      scopes: ['api'],
      expires_at: '2026-02-01',
    })
    const names = async (query: string) => {
      const answer = await call(gitlab, 'root', 'GET', `/audit_events?${query}`)
      expect(answer.status, query).toBe(200)
      return (await answer.json()).map((e: { event_name: string }) => e.event_name)
    }
    expect(await names('entity_type=Project')).toEqual(['project_access_token_created'])
    expect(await names('entity_type=Project&entity_id=8')).toEqual([])
    expect(await names('entity_type=User&entity_id=1')).toEqual(['personal_access_token_created'])
    expect(await names('created_after=2026-01-02T00:00:00Z')).toEqual(['personal_access_token_created'])
    expect(await names('created_before=2026-01-02')).toEqual(['project_access_token_created'])
    expect(await names('entity_type=Gitlab::Audit::InstanceScope')).toEqual([])
    const noType = await call(gitlab, 'root', 'GET', '/audit_events?entity_id=7')
    expect(noType.status).toBe(400)
    expect(await noType.json()).toEqual({ error: 'entity_type is missing' })
    const badType = await call(gitlab, 'root', 'GET', '/audit_events?entity_type=Token')
    expect(badType.status).toBe(400)
    expect(await badType.json()).toEqual({ error: 'entity_type does not have a valid value' })
    const badDate = await call(gitlab, 'root', 'GET', '/audit_events?created_after=soon')
    expect(badDate.status).toBe(400)
  })

  it('pages with GitLab’s headers', async () => {
    const gitlab = await startWorld()
    for (let i = 0; i < 3; i++) await createProjectToken(gitlab)
    const page = await call(gitlab, 'root', 'GET', '/audit_events?per_page=2&page=2')
    expect((await page.json()).map((e: { id: number }) => e.id)).toEqual([1])
    expect(page.headers.get('x-total')).toBe('3')
    expect(page.headers.get('x-prev-page')).toBe('1')
    expect(page.headers.get('link')).toContain('rel="first"')
  })

  it('a project’s: Maintainers all, Developers only their own, Guests none; a group’s: Owners all, members their own', async () => {
    const gitlab = await startWorld()
    await createProjectToken(gitlab) // by the maintainer
    const developerToken = await call(gitlab, 'owner', 'POST', '/projects/7/access_tokens', {
      name: 'by-owner',
      scopes: ['api'],
      expires_at: '2026-03-01',
    })
    expect(developerToken.status).toBe(201)
    const ids = async (who: 'maintainer' | 'developer' | 'owner', path: string) =>
      (await (await call(gitlab, who, 'GET', path)).json()).map((e: { author_id: number }) => e.author_id)
    expect(await ids('maintainer', '/projects/7/audit_events')).toEqual([2, 3])
    expect(await ids('developer', '/projects/7/audit_events')).toEqual([])
    const guest = await call(gitlab, 'guest', 'GET', '/projects/7/audit_events')
    expect(guest.status).toBe(403)
    expect((await call(gitlab, 'developer', 'GET', '/projects/7/audit_events/1')).status).toBe(404)
    expect((await call(gitlab, 'maintainer', 'GET', '/projects/7/audit_events/1')).status).toBe(200)
    // A project's event is not the group's.
    expect((await call(gitlab, 'owner', 'GET', '/groups/1/audit_events/1')).status).toBe(404)
    await call(gitlab, 'owner', 'POST', '/groups/1/access_tokens', {
      name: 'g',
      scopes: ['api'],
      expires_at: '2026-03-01',
    })
    expect(await ids('owner', '/groups/1/audit_events')).toEqual([2])
    expect(await ids('maintainer', '/groups/1/audit_events')).toEqual([])
    const hidden = await call(gitlab, 'stranger', 'GET', '/groups/1/audit_events')
    expect(hidden.status).toBe(404)
    expect(await hidden.json()).toEqual({ message: '404 Group Not Found' })
  })
})
