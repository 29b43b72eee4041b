import { GitbeakerRequestError, Gitlab } from '@gitbeaker/rest'
import { afterEach, describe, expect, it } from 'vitest'
import {
  GROUP,
  GROUP_BOT,
  PROJECT,
  PROJECT_BOT,
  type ResourceFake,
  resourceFake,
  WEEK_LATER,
} from './support/resource-fake.js'

// gitbeaker 43's ProjectAccessTokens and GroupAccessTokens (@gitbeaker/core's ResourceAccessTokens:
// all, show, create, revoke, rotate; `rotate(id, 'self')` is POST .../access_tokens/self/rotate)
// against the fake GitLab on a real socket, each test with its own fake (test/e2e/support/
// resource-fake.ts). The expectations are GitLab's documented answers (doc/api/project_access_tokens.md,
// group_access_tokens.md; lib/api/resource_access_tokens.rb).

const fakes: ResourceFake[] = []
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.fake.close()))
})

async function world(): Promise<ResourceFake> {
  const w = await resourceFake()
  fakes.push(w)
  return w
}

const client = (w: ResourceFake, token: string) => new Gitlab({ host: w.url, token })

/** The status and GitLab's message a gitbeaker call rejects with. */
async function failure(promise: Promise<unknown>): Promise<{ status: number; description: string }> {
  try {
    await promise
  } catch (error) {
    if (!(error instanceof GitbeakerRequestError)) throw error
    return { status: error.cause?.response.status ?? 0, description: error.cause?.description ?? '' }
  }
  throw new Error('the call succeeded; a failure was expected')
}

const KINDS = [
  {
    kind: 'project',
    api: (g: InstanceType<typeof Gitlab>) => g.ProjectAccessTokens,
    resource: PROJECT,
    bot: PROJECT_BOT,
    botSecret: (w: ResourceFake) => w.secrets.projectBot,
    botTokenId: (w: ResourceFake) => w.tokenIds.projectBot,
    // alice is the project's Maintainer (Owner through the group); bob a Developer.
    outsider: (w: ResourceFake) => w.secrets.bob,
    notFound: '404 Project Not Found',
  },
  {
    kind: 'group',
    api: (g: InstanceType<typeof Gitlab>) => g.GroupAccessTokens,
    resource: GROUP,
    bot: GROUP_BOT,
    botSecret: (w: ResourceFake) => w.secrets.groupBot,
    botTokenId: (w: ResourceFake) => w.tokenIds.groupBot,
    // carol is the group's Maintainer: managing group tokens needs its Owner.
    outsider: (w: ResourceFake) => w.secrets.carol,
    notFound: '404 Group Not Found',
  },
] as const

describe.each(KINDS)('gitbeaker $kind access tokens', (k) => {
  it('all() lists the bot’s token with its role and resource, by id and by full path; show() reads it', async () => {
    const w = await world()
    const tokens = k.api(client(w, w.secrets.alice))
    const listed = await tokens.all(k.resource.id)
    expect(listed).toHaveLength(1)
    expect(listed[0]).toMatchObject({
      id: k.botTokenId(w),
      name: k.kind === 'project' ? 'deploy' : 'group-deploy',
      scopes: ['api'],
      user_id: k.bot,
      active: true,
      revoked: false,
      expires_at: '2026-06-01',
      access_level: 40,
      resource_type: k.kind,
      resource_id: k.resource.id,
    })
    expect(listed[0]).not.toHaveProperty('token')
    expect((await tokens.all(k.resource.fullPath)).map((t) => t.id)).toEqual([k.botTokenId(w)])
    const shown = await tokens.show(k.resource.id, k.botTokenId(w))
    expect(shown).toMatchObject({ id: k.botTokenId(w), user_id: k.bot, access_level: 40 })
  })

  it('create() makes a bot with the role and answers the secret once; the secret authenticates as that bot', async () => {
    const w = await world()
    const tokens = k.api(client(w, w.secrets.alice))
    const created = await tokens.create(k.resource.id, 'ci', ['read_api'], '2026-02-01', { accessLevel: 30 })
    expect(created).toMatchObject({
      name: 'ci',
      scopes: ['read_api'],
      expires_at: '2026-02-01',
      access_level: 30,
      resource_type: k.kind,
      resource_id: k.resource.id,
      active: true,
    })
    expect(created.token).toMatch(/^glpat-/)
    expect(created.user_id).not.toBe(k.bot)
    const me = await client(w, created.token).Users.showCurrentUser()
    expect(me.id).toBe(created.user_id)
    expect(me.username).toMatch(new RegExp(`^${k.kind}_${k.resource.id}_bot_`))
    expect((await tokens.all(k.resource.id)).map((t) => t.id)).toEqual([k.botTokenId(w), created.id])
  })

  it('rotate() by id answers the successor (a week by default), rotate(id, "self") with the bot’s own token; the old ones stay listed, revoked', async () => {
    const w = await world()
    const tokens = k.api(client(w, w.secrets.alice))
    const rotated = await tokens.rotate(k.resource.id, k.botTokenId(w))
    expect(rotated).toMatchObject({ user_id: k.bot, expires_at: WEEK_LATER, active: true })
    expect(rotated.id).not.toBe(k.botTokenId(w))
    const self = await k
      .api(client(w, rotated.token))
      .rotate(k.resource.id, 'self', { expiresAt: '2026-03-01' })
    expect(self).toMatchObject({ user_id: k.bot, expires_at: '2026-03-01' })
    expect(self.token).not.toBe(rotated.token)
    const listed = await tokens.all(k.resource.id)
    expect(listed.map((t) => [t.id, t.revoked])).toEqual([
      [k.botTokenId(w), true],
      [rotated.id, true],
      [self.id, false],
    ])
  })

  it('revoke() revokes the token, which stays listed as inactive', async () => {
    const w = await world()
    const tokens = k.api(client(w, w.secrets.alice))
    await tokens.revoke(k.resource.id, k.botTokenId(w))
    expect(await tokens.show(k.resource.id, k.botTokenId(w))).toMatchObject({ revoked: true, active: false })
    expect(await failure(client(w, k.botSecret(w)).Users.showCurrentUser())).toMatchObject({ status: 401 })
  })

  it('answers GitLab’s errors: an unknown token or resource 404, a caller without the role 401, a human’s self-rotation 405', async () => {
    const w = await world()
    const alice = k.api(client(w, w.secrets.alice))
    expect(await failure(alice.show(k.resource.id, 9999))).toEqual({
      status: 404,
      description: `404 ${k.kind} Access Token Not Found`,
    })
    expect(await failure(alice.all(999))).toEqual({ status: 404, description: k.notFound })
    expect(await failure(k.api(client(w, k.outsider(w))).all(k.resource.id))).toEqual({
      status: 401,
      description: '401 Unauthorized',
    })
    expect(await failure(alice.rotate(k.resource.id, 'self'))).toMatchObject({ status: 405 })
  })
})
