import { describe, expect, it } from 'vitest'
import type { AccessLevel, ResourceType } from '../../../src/store/index.js'
import { idsOf, resourceWorld } from './resource-world.js'
import { daysFromToday, TODAY } from './world.js'

// GitLab's spec/requests/api/resource_access_tokens_spec.rb (skratsch-solutions/gitlabhq 8bb5c513),
// shared example 'resource access token API' for both source types, one test per observable `it`,
// over real HTTP against the fake. docs/conformance.md maps them and lists those left out.

const MONTH_LATER = '2026-02-01'
const STATE_FIELDS = ['name', 'scopes', 'access_level', 'resource_type', 'resource_id', 'expires_at']

/** The spec's world for one source type: user, user_non_privileged, resource, other_resource, unknown_resource. */
async function specWorld(type: ResourceType, options: { requireExpiry?: boolean } = {}) {
  const w = await resourceWorld(options)
  const user = await w.human('Alice Maintainer')
  const nonPrivileged = await w.human('Bob Developer')
  const top = await w.group()
  const userLevel: AccessLevel = type === 'project' ? 40 : 50
  const botLevel: AccessLevel = type === 'project' ? 40 : 50
  const make = async () =>
    type === 'project' ? (await w.project(top.id)).id : (await w.group('private', top.id)).id
  const resource = await make()
  const other = await make()
  await w.member(type, resource, user, userLevel)
  await w.member(type, other, user, userLevel)
  await w.member(type, resource, nonPrivileged, type === 'project' ? 30 : 40)
  const unknown = type === 'project' ? (await w.project(null)).id : 999
  const base = (id: number | string) => `/${type}s/${id}/access_tokens`
  return { ...w, type, user, nonPrivileged, resource, other, unknown, base, botLevel }
}

type SpecWorld = Awaited<ReturnType<typeof specWorld>>

/** The list world: a bot with 5 active `b_test` tokens, an expired `a_test_1`, a revoked `c_test`. */
async function listWorld(type: ResourceType) {
  const w = await specWorld(type)
  const bot = await w.makeBot(type, w.resource, w.botLevel)
  const active = []
  for (let i = 0; i < 5; i++) active.push(await w.botToken(bot, { name: 'b_test' }))
  const twoDaysAgo = new Date(Date.parse(`${TODAY}T00:00:00Z`) - 2 * 86_400_000)
  const expired = await w.botToken(bot, {
    name: 'a_test_1',
    expiresAt: daysFromToday(-2),
    lastUsedAt: twoDaysAgo,
    createdAt: new Date(twoDaysAgo.getTime() - 86_400_000 * 5),
  })
  const revoked = await w.botToken(bot, { name: 'c_test', revoked: true })
  return { ...w, bot, active, expired, revoked, all: [...active, expired, revoked].map((t) => t.id) }
}

async function list(w: SpecWorld, query: Record<string, unknown> = {}, id: number | string = w.resource) {
  return w.api('GET', w.base(id), { user: w.user }, query)
}

for (const type of ['project', 'group'] as const) {
  const label = type === 'project' ? 'Project' : 'Group'
  describe(`resource access token API (${type})`, () => {
    describe(`GET ${type}s/:id/access_tokens`, () => {
      it('gets a list of all access tokens', async () => {
        const w = await listWorld(type)
        const r = await list(w)
        expect(r.status).toBe(200)
        for (const h of [
          'x-total',
          'x-total-pages',
          'x-per-page',
          'x-page',
          'x-next-page',
          'x-prev-page',
          'link',
        ])
          expect(r.headers.has(h), h).toBe(true)
        expect(idsOf(r)).toEqual(w.all)
      })

      it('exposes the correct token information', async () => {
        const w = await listWorld(type)
        const items = (await list(w)).json as Record<string, unknown>[]
        const last = items[items.length - 1] ?? {}
        expect(last).toMatchObject({
          name: 'c_test',
          scopes: ['api'],
          access_level: w.botLevel,
          resource_type: type,
          resource_id: w.resource,
          expires_at: daysFromToday(30),
        })
        expect(last).not.toHaveProperty('token')
        // GitLab's `match_response_schema('public_api/v4/resource_access_tokens')`: each item is
        // spec/fixtures/api/schemas/public_api/v4/resource_access_token.json (gitlabhq 3919ad72), whose
        // `required` holds every field below, `granular` a boolean among them.
        for (const item of items) {
          for (const field of [
            'id',
            'name',
            'description',
            'user_id',
            'active',
            'granular',
            'created_at',
            'expires_at',
            'revoked',
            'access_level',
            'scopes',
            'last_used_at',
            'resource_type',
            'resource_id',
          ])
            expect(item, field).toHaveProperty(field)
          expect(typeof item['granular']).toBe('boolean')
        }
      })

      it('a bot token lists the same tokens', async () => {
        const w = await listWorld(type)
        const own = w.active[0]
        if (own === undefined) throw new Error('no token')
        const r = await w.api('GET', w.base(w.resource), { personalAccessToken: own })
        expect(idsOf(r)).toEqual(w.all)
      })

      it('does not include tokens of bots of other resources', async () => {
        const w = await listWorld(type)
        const otherBot = await w.makeBot(type, w.other, w.botLevel)
        const foreign = await w.botToken(otherBot)
        expect(idsOf(await list(w))).not.toContain(foreign.id)
      })

      it('other_resource without tokens: 200 []', async () => {
        const w = await listWorld(type)
        const r = await list(w, {}, w.other)
        expect(r.status).toBe(200)
        expect(r.json).toEqual([])
      })

      it('unknown_resource: 404', async () => {
        const w = await listWorld(type)
        const r = await list(w, {}, w.unknown)
        expect(r.status).toBe(404)
        expect(r.json).toEqual({ message: `404 ${label} Not Found` })
      })

      it('non-existing resource id: 404', async () => {
        const w = await listWorld(type)
        expect((await list(w, {}, 12345)).status).toBe(404)
      })

      it('revoked=false', async () => {
        const w = await listWorld(type)
        expect(idsOf(await list(w, { revoked: false }))).toEqual([...w.active.map((t) => t.id), w.expired.id])
      })

      it('revoked=true', async () => {
        const w = await listWorld(type)
        expect(idsOf(await list(w, { revoked: true }))).toEqual([w.revoked.id])
      })

      it('state=inactive', async () => {
        const w = await listWorld(type)
        const r = await list(w, { state: 'inactive' })
        expect(r.status).toBe(200)
        expect(r.headers.has('x-total')).toBe(true)
        expect(idsOf(r)).toEqual([w.expired.id, w.revoked.id])
      })

      it('state=active', async () => {
        const w = await listWorld(type)
        expect(idsOf(await list(w, { state: 'active' }))).toEqual(w.active.map((t) => t.id))
      })

      it('created_before=1.day.ago', async () => {
        const w = await listWorld(type)
        expect(idsOf(await list(w, { created_before: '2025-12-31T10:00:00Z' }))).toEqual([w.expired.id])
      })

      it('created_after=1.day.ago', async () => {
        const w = await listWorld(type)
        expect(idsOf(await list(w, { created_after: '2025-12-31T10:00:00Z' }))).toEqual([
          ...w.active.map((t) => t.id),
          w.revoked.id,
        ])
      })

      it('last_used_before=1.day.ago', async () => {
        const w = await listWorld(type)
        expect(idsOf(await list(w, { last_used_before: '2025-12-31T10:00:00Z' }))).toEqual([w.expired.id])
      })

      it('last_used_after=1.day.ago', async () => {
        const w = await listWorld(type)
        expect(idsOf(await list(w, { last_used_after: '2025-12-31T10:00:00Z' }))).toEqual([])
      })

      it('expires_before=1.day.ago', async () => {
        const w = await listWorld(type)
        expect(idsOf(await list(w, { expires_before: daysFromToday(-1) }))).toEqual([w.expired.id])
      })

      it('expires_after=1.day.ago', async () => {
        const w = await listWorld(type)
        expect(idsOf(await list(w, { expires_after: daysFromToday(-1) }))).toEqual([
          ...w.active.map((t) => t.id),
          w.revoked.id,
        ])
      })

      it('search=a_test_1', async () => {
        const w = await listWorld(type)
        expect(idsOf(await list(w, { search: 'a_test_1' }))).toEqual([w.expired.id])
      })

      it('sort=name_desc: the expired token last', async () => {
        const w = await listWorld(type)
        expect(idsOf(await list(w, { sort: 'name_desc' })).at(-1)).toBe(w.expired.id)
      })

      it('sort=name_asc: the expired token first', async () => {
        const w = await listWorld(type)
        expect(idsOf(await list(w, { sort: 'name_asc' }))[0]).toBe(w.expired.id)
      })

      it('without permission: 401', async () => {
        const w = await listWorld(type)
        const r = await w.api('GET', w.base(w.resource), { user: w.nonPrivileged })
        expect(r.status).toBe(401)
      })
    })

    describe(`GET ${type}s/:id/access_tokens/:token_id`, () => {
      async function getWorld() {
        const w = await specWorld(type)
        const bot = await w.makeBot(type, w.resource, w.botLevel)
        const token = await w.botToken(bot)
        return { ...w, bot, token }
      }

      it('gets the token', async () => {
        const w = await getWorld()
        const r = await w.api('GET', `${w.base(w.resource)}/${w.token.id}`, { user: w.user })
        expect(r.status).toBe(200)
        expect(Object.keys(r.json as object)).toEqual(expect.arrayContaining(STATE_FIELDS))
        expect(r.json).toMatchObject({
          access_level: w.botLevel,
          resource_type: type,
          resource_id: w.resource,
        })
      })

      it("gets another bot's token of the same resource", async () => {
        const w = await getWorld()
        const other = await w.botToken(await w.makeBot(type, w.resource, 20))
        const r = await w.api('GET', `${w.base(w.resource)}/${other.id}`, { user: w.user })
        expect(r.status).toBe(200)
        expect(r.json).toMatchObject({ id: other.id, access_level: 20, resource_type: type })
      })

      it('non-existing token_id: 404', async () => {
        const w = await getWorld()
        const r = await w.api('GET', `${w.base(w.resource)}/${w.token.id + 1000}`, { user: w.user })
        expect({ status: r.status, json: r.json }).toEqual({
          status: 404,
          json: { message: `404 ${type} Access Token Not Found` },
        })
      })

      it('a token of another resource: 404', async () => {
        const w = await getWorld()
        const foreign = await w.botToken(await w.makeBot(type, w.other, w.botLevel))
        const r = await w.api('GET', `${w.base(w.resource)}/${foreign.id}`, { user: w.user })
        expect(r.json).toEqual({ message: `404 ${type} Access Token Not Found` })
      })

      it('without permission: 401', async () => {
        const w = await getWorld()
        const r = await w.api('GET', `${w.base(w.resource)}/${w.token.id}`, { user: w.nonPrivileged })
        expect(r.status).toBe(401)
      })
    })

    describe(`DELETE ${type}s/:id/access_tokens/:token_id`, () => {
      async function deleteWorld() {
        const w = await specWorld(type)
        const bot = await w.makeBot(type, w.resource, 40)
        const token = await w.botToken(bot)
        return { ...w, bot, token }
      }

      it('deletes the token: 204, revoked, the bot kept', async () => {
        const w = await deleteWorld()
        const r = await w.api('DELETE', `${w.base(w.resource)}/${w.token.id}`, { user: w.user })
        expect(r.status).toBe(204)
        expect((await w.reload(w.token.id)).revoked).toBe(true)
        expect(await w.userExists(w.bot.id)).toBe(true)
      })

      it("deletes the other bot's token only", async () => {
        const w = await deleteWorld()
        const otherBot = await w.makeBot(type, w.resource, 40)
        const other = await w.botToken(otherBot)
        const r = await w.api('DELETE', `${w.base(w.resource)}/${other.id}`, { user: w.user })
        expect(r.status).toBe(204)
        expect((await w.reload(w.token.id)).revoked).toBe(false)
        expect((await w.reload(other.id)).revoked).toBe(true)
        expect(await w.userExists(otherBot.id)).toBe(true)
      })

      it('non-existing token_id: 404', async () => {
        const w = await deleteWorld()
        const r = await w.api('DELETE', `${w.base(w.resource)}/${w.token.id + 1000}`, { user: w.user })
        expect(r.json).toEqual({ message: `404 ${type} Access Token Not Found` })
      })

      it('a token of another resource: 404', async () => {
        const w = await deleteWorld()
        const foreign = await w.botToken(await w.makeBot(type, w.other, 40))
        const r = await w.api('DELETE', `${w.base(w.resource)}/${foreign.id}`, { user: w.user })
        expect(r.json).toEqual({ message: `404 ${type} Access Token Not Found` })
      })

      it('without permission: 400 "<user> cannot delete <bot>", the bot kept', async () => {
        const w = await deleteWorld()
        const r = await w.api('DELETE', `${w.base(w.resource)}/${w.token.id}`, { user: w.nonPrivileged })
        expect(r.status).toBe(400)
        expect(r.text).toContain(`${w.nonPrivileged.name} cannot delete ${w.bot.name}`)
        expect(await w.userExists(w.bot.id)).toBe(true)
      })
    })

    describe(`POST ${type}s/:id/access_tokens`, () => {
      const params = {
        name: 'test',
        description: 'description',
        scopes: ['api'],
        expires_at: MONTH_LATER,
        access_level: 20,
      }
      const post = (w: SpecWorld, body: Record<string, unknown>, who = w.user, id: number = w.resource) =>
        w.api('POST', w.base(id), { user: who }, body)

      it('creates the token: 201', async () => {
        const w = await specWorld(type)
        const r = await post(w, params)
        expect(r.status).toBe(201)
        const json = r.json as Record<string, unknown>
        expect(json).toMatchObject({
          name: 'test',
          description: 'description',
          scopes: ['api'],
          access_level: 20,
          expires_at: MONTH_LATER,
          resource_type: type,
          resource_id: w.resource,
        })
        expect(typeof json['token']).toBe('string')
      })

      it('no expires_at, expiry required: 400 expires_at is missing', async () => {
        const w = await specWorld(type)
        const { expires_at: _, ...rest } = params
        const r = await post(w, rest)
        expect({ status: r.status, json: r.json }).toEqual({
          status: 400,
          json: { message: '400 Bad request - expires_at is missing' },
        })
      })

      it('no expires_at, expiry not required: 201 with expires_at null', async () => {
        const w = await specWorld(type, { requireExpiry: false })
        const { expires_at: _, ...rest } = params
        const r = await post(w, rest)
        expect(r.status).toBe(201)
        expect(r.json).toMatchObject({ name: 'test', expires_at: null })
      })

      it('no access_level: 201 with 40', async () => {
        const w = await specWorld(type)
        const { access_level: _, ...rest } = params
        const r = await post(w, rest)
        expect(r.status).toBe(201)
        expect(r.json).toMatchObject({ access_level: 40 })
      })

      it('missing name: 400', async () => {
        const w = await specWorld(type)
        const { name: _, ...rest } = params
        expect((await post(w, rest)).text).toContain('name is missing')
      })

      it('missing scopes: 400', async () => {
        const w = await specWorld(type)
        const { scopes: _, ...rest } = params
        expect((await post(w, rest)).text).toContain('scopes is missing')
      })

      it('invalid scopes: 400', async () => {
        const w = await specWorld(type)
        expect((await post(w, { ...params, scopes: ['test'] })).text).toContain(
          'scopes does not have a valid value',
        )
      })

      it('access_level 0: 400', async () => {
        const w = await specWorld(type)
        expect((await post(w, { ...params, access_level: 0 })).text).toContain(
          'access_level does not have a valid value',
        )
      })

      it('unknown_resource: 404', async () => {
        const w = await specWorld(type)
        const r = await post(w, params, w.user, w.unknown)
        expect(r.status).toBe(404)
        expect(r.text).toContain(`${label} Not Found`)
      })

      it('a role too low: 400', async () => {
        const w = await specWorld(type)
        const r = await post(w, params, w.nonPrivileged)
        expect(r.status).toBe(400)
        expect(r.text).toContain(`User does not have permission to create ${type} access token`)
      })

      it('a bot caller: 400', async () => {
        const w = await specWorld(type)
        const bot = await w.makeBot(type, w.resource, 50)
        const r = await w.api(
          'POST',
          w.base(w.resource),
          { personalAccessToken: await w.botToken(bot) },
          params,
        )
        expect(r.status).toBe(400)
        expect(r.text).toContain(`User does not have permission to create ${type} access token`)
      })
    })

    describe(`POST ${type}s/:id/access_tokens/:token_id/rotate`, () => {
      async function rotateWorld(userLevel: 40 | 50, botLevel: 40 | 50) {
        const w = await specWorld(type)
        const caller = await w.human('Carol')
        await w.member(type, w.resource, caller, userLevel)
        const bot = await w.makeBot(type, w.resource, botLevel)
        const token = await w.botToken(bot)
        const rotate = (who = caller, body: Record<string, unknown> = {}, id = token.id) =>
          w.api('POST', `${w.base(w.resource)}/${id}/rotate`, { user: who }, body)
        return { ...w, caller, bot, token, rotate }
      }

      it('an Owner rotates: 200, a new token, a week', async () => {
        const w = await rotateWorld(50, 40)
        const r = await w.rotate()
        expect(r.status).toBe(200)
        const json = r.json as { token: string; expires_at: string }
        expect(json.token).not.toBe(w.token.secret)
        expect(json.expires_at).toBe(daysFromToday(7))
      })

      it('a Maintainer, an Owner bot', async () => {
        const w = await rotateWorld(40, 50)
        const r = await w.rotate()
        if (type === 'project') {
          expect(r.json).toEqual({
            message: '400 Bad request - Not eligible to rotate tokens with permissions not held by the user',
          })
        } else expect(r.status).toBe(401)
      })

      it('a Maintainer, a Maintainer bot', async () => {
        const w = await rotateWorld(40, 40)
        const r = await w.rotate()
        if (type === 'project') {
          expect(r.status).toBe(200)
          expect((r.json as { expires_at: string }).expires_at).toBe(daysFromToday(7))
        } else expect(r.status).toBe(401)
      })

      it('with expires_at: that day', async () => {
        const w = await rotateWorld(50, 40)
        const r = await w.rotate(w.caller, { expires_at: MONTH_LATER })
        expect(r.status).toBe(200)
        expect((r.json as { expires_at: string }).expires_at).toBe(MONTH_LATER)
      })

      it('a Developer: 401', async () => {
        const w = await rotateWorld(50, 40)
        const dev = await w.human('Dave')
        await w.member(type, w.resource, dev, 30)
        expect((await w.rotate(dev)).status).toBe(401)
      })

      it('non-existing token_id, a non-administrator: 401', async () => {
        const w = await rotateWorld(50, 40)
        const dev = await w.human('Dave')
        await w.member(type, w.resource, dev, 30)
        expect((await w.rotate(dev, {}, w.token.id + 1000)).status).toBe(401)
      })

      it('non-existing token_id, an administrator: 404', async () => {
        const w = await rotateWorld(50, 40)
        const admin = await w.human('Eve Admin', true)
        const r = await w.api('POST', `${w.base(w.resource)}/${w.token.id + 1000}/rotate`, {
          user: admin,
          adminMode: true,
        })
        expect({ status: r.status, json: r.json }).toEqual({
          status: 404,
          json: { message: '404 Not Found' },
        })
      })
    })
  })
}
