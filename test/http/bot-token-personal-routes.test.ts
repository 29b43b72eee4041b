import { describe, expect, it } from 'vitest'
import type { ResourceType } from '../../src/domain/resource.js'
import { resourceWorld } from '../e2e/gitlab-specs/resource-world.js'
import { daysFromToday } from '../e2e/gitlab-specs/world.js'

// A project or group access token is a personal access token of its bot: GitLab serves
// `/personal_access_tokens/self`, `/personal_access_tokens/self/rotate` and `/user` to it as to a
// human's token (resource-access-tokens.md §3), the User entity showing `bot: true` and the bot's name.

async function world(type: ResourceType, scopes: readonly string[] = ['api']) {
  const w = await resourceWorld()
  const top = await w.group()
  const id = type === 'project' ? (await w.project(top.id)).id : top.id
  const owner = await w.human('Olivia')
  await w.member(type, id, owner, 50)
  const created = await w.api(
    'POST',
    `/${type}s/${id}/access_tokens`,
    { user: owner },
    {
      name: 'Deploy bot',
      scopes: [...scopes],
      expires_at: daysFromToday(30),
      access_level: 30,
    },
  )
  expect(created.status).toBe(201)
  const token = created.json as { id: number; user_id: number; token: string }
  return { ...w, type, id, owner, token }
}

for (const type of ['project', 'group'] as const) {
  describe(`a ${type} bot's token on the personal routes`, () => {
    it('GET /personal_access_tokens/self: the token, as for a human', async () => {
      const w = await world(type, ['read_api'])
      const r = await w.send('GET', '/personal_access_tokens/self', w.token.token)
      expect(r.status).toBe(200)
      expect(r.json).toMatchObject({
        id: w.token.id,
        name: 'Deploy bot',
        user_id: w.token.user_id,
        scopes: ['read_api'],
        revoked: false,
        active: true,
        expires_at: daysFromToday(30),
      })
      expect(r.json).not.toHaveProperty('token')
      expect(r.json).not.toHaveProperty('access_level')
    })

    it('GET /user: the bot, `bot: true`, with its name', async () => {
      const w = await world(type, ['read_api'])
      const r = await w.send('GET', '/user', w.token.token)
      expect(r.status).toBe(200)
      expect(r.json).toMatchObject({
        id: w.token.user_id,
        username: expect.stringMatching(new RegExp(`^${type}_${w.id}_bot_[0-9a-f]{32}$`)),
        name: 'Deploy bot',
        bot: true,
      })
    })

    it('GET /user with a scope that does not read users: 403, as for a human', async () => {
      const w = await world(type, ['read_repository'])
      expect((await w.send('GET', '/user', w.token.token)).status).toBe(403)
    })

    for (const scopes of [['api'], ['self_rotate'], ['read_api', 'self_rotate']]) {
      it(`POST /personal_access_tokens/self/rotate (${scopes.join(', ')}): the same bot, name and scopes, a week`, async () => {
        const w = await world(type, scopes)
        const r = await w.send('POST', '/personal_access_tokens/self/rotate', w.token.token)
        expect(r.status).toBe(200)
        const next = r.json as { id: number; token: string }
        expect(r.json).toMatchObject({
          name: 'Deploy bot',
          user_id: w.token.user_id,
          scopes,
          expires_at: daysFromToday(7),
          active: true,
        })
        expect(r.json).not.toHaveProperty('access_level')
        expect((await w.reload(w.token.id)).revoked).toBe(true)
        // The successor is still the resource's token, at the bot's role.
        const listed = await w.send('GET', `/personal_access_tokens/self`, next.token)
        expect(listed.json).toMatchObject({ id: next.id })
        const shown = await w.api('GET', `/${type}s/${w.id}/access_tokens/${next.id}`, { user: w.owner })
        expect(shown.json).toMatchObject({ id: next.id, access_level: 30, resource_type: type })
      })
    }

    it('POST /personal_access_tokens/self/rotate with read_api only: 403, as for a human', async () => {
      const w = await world(type, ['read_api'])
      const r = await w.send('POST', '/personal_access_tokens/self/rotate', w.token.token)
      expect(r.status).toBe(403)
    })
  })
}
