import { describe, expect, it } from 'vitest'
import type { Seed } from '../../src/fake/seed/seed-schema.js'
import { control, fakeOver, snapshotOf } from './support/data-fake.js'

// `POST /__patkit/tokens` with `granular_scopes` (GitLab's API shape, as the seed takes it): the token
// is made fine-grained, its answer and the snapshot show its scopes, and a bad entry is refused with
// the seed's problems, nothing written.

const WORLD: Seed = {
  users: [{ id: 2, username: 'alice' }],
  groups: [{ id: 1, path: 'acme', name: 'Acme', members: [{ user_id: 2, access_level: 50 }] }],
  projects: [{ id: 7, path: 'api', name: 'API', group_id: 1 }],
}

describe('POST /__patkit/tokens with granular_scopes', () => {
  it('makes a fine-grained token and answers its scopes, one entry per scope', async () => {
    const fake = await fakeOver({ seed: WORLD })
    const added = await control(fake, 'POST', '/tokens', {
      user_id: 2,
      name: 'fine',
      granular_scopes: [
        {
          access: 'selected_memberships',
          permissions: ['read_project', 'read_group'],
          group_ids: [1],
          project_ids: [7],
        },
      ],
    })
    expect(added.status).toBe(201)
    expect(added.body).toMatchObject({
      user_id: 2,
      granular_scopes: [
        { access: 'selected_memberships', permissions: ['read_project', 'read_group'], group_ids: [1] },
        { access: 'selected_memberships', permissions: ['read_project', 'read_group'], project_ids: [7] },
      ],
    })
    const { id, token } = added.body as { id: number; token: string }
    const response = await fake.handler(
      new Request('http://127.0.0.1/api/v4/projects/7', { headers: { 'PRIVATE-TOKEN': token } }),
    )
    expect(response.status).toBe(200)
    expect((await snapshotOf(fake)).tokens.find((t) => t.id === id)).toMatchObject({
      granular_scopes: [{ group_ids: [1] }, { project_ids: [7] }],
    })
  })

  it('a legacy token’s answer has no granular_scopes', async () => {
    const fake = await fakeOver({ seed: WORLD })
    const added = await control(fake, 'POST', '/tokens', { user_id: 2, name: 'legacy', scopes: ['api'] })
    expect(added.status).toBe(201)
    expect(Object.keys(added.body as object).sort()).toEqual(['id', 'token', 'user_id'])
  })

  it('refuses an unknown permission or project with the seed’s problems, writing nothing', async () => {
    const fake = await fakeOver({ seed: WORLD })
    const before = await snapshotOf(fake)
    const unknown = await control(fake, 'POST', '/tokens', {
      user_id: 2,
      name: 'fine',
      granular_scopes: [{ access: 'selected_memberships', permissions: ['read_project'], project_ids: [99] }],
    })
    expect(unknown).toEqual({
      status: 400,
      body: {
        error: 'invalid token',
        problems: [
          {
            path: 'tokens[0].granular_scopes[0].project_ids[0]',
            message: 'No project with id 99 in the seed or the data',
          },
        ],
      },
    })
    const both = await control(fake, 'POST', '/tokens', {
      user_id: 2,
      name: 'fine',
      scopes: ['api'],
      granular_scopes: [{ access: 'user', permissions: ['read_user'] }],
    })
    expect(both.status).toBe(400)
    expect(both.body).toMatchObject({ problems: [{ path: 'tokens[0].scopes' }] })
    expect(await snapshotOf(fake)).toEqual(before)
  })
})
