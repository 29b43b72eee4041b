import { describe, expect, it } from 'vitest'
import { RESOURCE_BOT_SCOPES } from '../../../src/domain/scopes.js'
import type { ResourceType, Visibility } from '../../../src/store/index.js'
import { resourceWorld } from './resource-world.js'
import { daysFromToday } from './world.js'

// GitLab's spec/requests/api/resource_access_tokens/self_rotation_spec.rb (gitlabhq 35b6ac04), for
// both source types, one test per observable `it` (each of the 15 resource_bot_scopes its own
// example), over real HTTP against the fake. docs/conformance.md maps them and lists those left out.

const MONTH_LATER = '2026-02-01'
const ROTATING = ['api', 'self_rotate']

async function world(type: ResourceType, scopes: readonly string[] = ['api']) {
  const w = await resourceWorld()
  const top = await w.group()
  const resource = type === 'project' ? (await w.project(top.id)).id : (await w.group('private', top.id)).id
  const bot = await w.makeBot(type, resource, 10)
  const token = await w.botToken(bot, { scopes: [...scopes] })
  const path = (id: number = resource) => `/${type}s/${id}/access_tokens/self/rotate`
  return { ...w, top, resource, bot, token, path }
}

type World = Awaited<ReturnType<typeof world>>

async function succeeds(w: World, params?: { expires_at: string }) {
  const r = await w.send('POST', w.path(), w.token.secret, params)
  expect(r.status).toBe(200)
  const json = r.json as { token: string; expires_at: string }
  expect(json.token).not.toBe(w.token.secret)
  expect(json.expires_at).toBe(params?.expires_at ?? daysFromToday(7))
  expect((await w.reload(w.token.id)).revoked).toBe(true)
}

for (const type of ['project', 'group'] as const) {
  describe(`POST ${type}s/:id/access_tokens/self/rotate`, () => {
    for (const admin of [true, false]) {
      it(`a human's token (${admin ? 'an administrator in admin mode' : 'a Guest'}): 405`, async () => {
        const w = await world(type)
        const human = await w.human('Helen', admin)
        if (!admin) await w.member(type, w.resource, human, 10)
        const r = await w.api('POST', w.path(), { user: human, adminMode: admin })
        expect({ status: r.status, json: r.json }).toEqual({
          status: 405,
          json: { message: '405 Method Not Allowed' },
        })
      })
    }

    it('an invalid token: 401', async () => {
      const w = await world(type)
      expect((await w.send('POST', w.path(), 'invalidtoken')).status).toBe(401)
    })

    it('a revoked token: 401', async () => {
      const w = await world(type)
      const revoked = await w.botToken(w.bot, { revoked: true })
      expect((await w.send('POST', w.path(), revoked.secret)).status).toBe(401)
    })

    it('an expired token: 401', async () => {
      const w = await world(type)
      const expired = await w.botToken(w.bot, { expiresAt: daysFromToday(-1) })
      expect((await w.send('POST', w.path(), expired.secret)).status).toBe(401)
    })

    it('a rotated token: 401, and its child is revoked (reuse detection)', async () => {
      const w = await world(type)
      const first = await w.send('POST', w.path(), w.token.secret)
      expect(first.status).toBe(200)
      const child = first.json as { id: number }
      expect((await w.send('POST', w.path(), w.token.secret)).status).toBe(401)
      expect((await w.reload(child.id)).revoked).toBe(true)
    })

    it('a rotated token presented to :token_id/rotate: its child is revoked too', async () => {
      const w = await world(type)
      const child = (await w.send('POST', w.path(), w.token.secret)).json as { id: number }
      const r = await w.send(
        'POST',
        `/${type}s/${w.resource}/access_tokens/${w.token.id}/rotate`,
        w.token.secret,
      )
      expect(r.status).toBe(401)
      expect((await w.reload(child.id)).revoked).toBe(true)
    })

    it('rotates: 200, a new token, a week, the old one revoked', async () => {
      await succeeds(await world(type))
    })

    it('with expires_at: that day', async () => {
      await succeeds(await world(type), { expires_at: MONTH_LATER })
    })

    for (const scope of RESOURCE_BOT_SCOPES) {
      if (ROTATING.includes(scope)) {
        it(`a '${scope}' token: 200`, async () => {
          await succeeds(await world(type, [scope]))
        })
      } else {
        it(`a '${scope}' token: 403`, async () => {
          const w = await world(type, [scope])
          expect((await w.send('POST', w.path(), w.token.secret)).status).toBe(403)
        })
      }
      it(`a '${scope}' and 'self_rotate' token: 200`, async () => {
        await succeeds(await world(type, scope === 'self_rotate' ? [scope] : [scope, 'self_rotate']))
      })
    }

    for (const visibility of ['private', 'internal', 'public'] as Visibility[]) {
      it(`a token of another bot on a new ${visibility} resource: ${visibility === 'private' ? 404 : 401}`, async () => {
        const w = await world(type)
        const fresh =
          type === 'project' ? (await w.project(null, visibility)).id : (await w.group(visibility)).id
        const r = await w.send('POST', w.path(fresh), w.token.secret)
        expect(r.status).toBe(visibility === 'private' ? 404 : 401)
      })
    }
  })
}
