import { describe, expect, it } from 'vitest'
import { manualClock } from '../../src/domain/clock.js'
import { seededRandom } from '../../src/domain/random.js'
import type { AccessLevel, ResourceRef } from '../../src/domain/resource.js'
import { RESOURCE_BOT_SCOPES } from '../../src/domain/scopes.js'
import { type AuthorityConfig, type AuthorityEvent, createAuthority } from '../../src/index.js'
import { memoryStore } from '../../src/memory/index.js'
import { T0 } from '../support/authority-fixtures.js'

// issueResourceToken, the embedders' call without a caller: a bot of the resource, its membership
// and its token; every refusal comes before the bot is made, so none is left behind.

const OWNER = { id: 1, username: 'owner', admin: false, blocked: false } as const

async function world(options: Partial<Omit<AuthorityConfig, 'store' | 'pepper'>> = {}) {
  const store = memoryStore({ users: [OWNER] })
  const resources = store.resources
  if (resources === undefined) throw new Error('the memory store holds resources')
  const events: AuthorityEvent[] = []
  const authority = createAuthority({
    store,
    pepper: 'test-pepper',
    clock: manualClock(T0),
    random: seededRandom(5),
    onEvent: (e) => events.push(e),
    ...options,
  })
  ;(
    await resources.putGroup({
      id: 3,
      path: 'acme',
      fullPath: 'acme',
      name: 'Acme',
      parentId: null,
      visibility: 'private',
      members: [{ userId: OWNER.id, accessLevel: 50 }],
    })
  )._unsafeUnwrap()
  ;(
    await resources.putProject({
      id: 7,
      path: 'api',
      fullPath: 'acme/api',
      name: 'API',
      groupId: 3,
      visibility: 'private',
      members: [],
    })
  )._unsafeUnwrap()
  const bots = async () => (await resources.listUsers({ bot: true }))._unsafeUnwrap()
  return { authority, resources, events, bots }
}

const PROJECT: ResourceRef = { type: 'project', id: 7 }
const GROUP: ResourceRef = { type: 'group', id: 3 }

describe('issueResourceToken', () => {
  for (const resource of [PROJECT, GROUP]) {
    it(`makes a ${resource.type} bot, a Maintainer by default, and its token`, async () => {
      const w = await world()
      const issued = (
        await w.authority.resources.issue({
          resource,
          name: 'ci',
          scopes: ['read_api', 'read_repository'],
        })
      )._unsafeUnwrap()
      const [bot, ...others] = await w.bots()
      expect(others).toEqual([])
      expect(bot).toMatchObject({
        username: expect.stringMatching(new RegExp(`^${resource.type}_${resource.id}_bot_[0-9a-f]{32}$`)),
        name: 'ci',
        bot: true,
        botNamespace: resource,
        admin: false,
        blocked: false,
      })
      expect(issued).toMatchObject({ accessLevel: 40, resource })
      expect(issued.token).toMatchObject({
        userId: bot?.id,
        name: 'ci',
        scopes: ['read_api', 'read_repository'],
        revoked: false,
        impersonation: false,
        previousId: null,
      })
      expect(issued.secret).toMatch(/^glpat-/)
      const found =
        resource.type === 'project'
          ? (await w.resources.findProject(resource.id))._unsafeUnwrap()
          : (await w.resources.findGroup(resource.id))._unsafeUnwrap()
      expect(found?.members).toContainEqual({ userId: bot?.id, accessLevel: 40 })
      expect(w.events).toEqual([
        expect.objectContaining({
          type: 'created',
          actorUserId: null,
          token: expect.objectContaining({ id: issued.token.id, userId: bot?.id }),
        }),
      ])
    })
  }

  it('makes a member at the given access level, with the given description and day', async () => {
    const w = await world()
    const issued = (
      await w.authority.resources.issue({
        resource: PROJECT,
        name: 'deploy',
        scopes: ['api'],
        accessLevel: 20,
        expiresAt: '2026-04-01',
        description: 'CI deploys',
      })
    )._unsafeUnwrap()
    expect(issued.accessLevel).toBe(20)
    expect(issued.token).toMatchObject({ expiresAt: '2026-04-01', description: 'CI deploys' })
    const project = (await w.resources.findProject(7))._unsafeUnwrap()
    expect(project?.members).toEqual([{ userId: issued.token.userId, accessLevel: 20 }])
  })

  it('makes one bot per token, each with its own username', async () => {
    const w = await world()
    const a = (
      await w.authority.resources.issue({ resource: GROUP, name: 'a', scopes: ['api'] })
    )._unsafeUnwrap()
    const b = (
      await w.authority.resources.issue({ resource: GROUP, name: 'b', scopes: ['api'] })
    )._unsafeUnwrap()
    expect(a.token.userId).not.toBe(b.token.userId)
    const names = (await w.bots()).map((u) => u.username)
    expect(new Set(names).size).toBe(2)
  })

  it('accepts every resource bot scope', async () => {
    const w = await world()
    const issued = await w.authority.resources.issue({
      resource: PROJECT,
      name: 'all',
      scopes: RESOURCE_BOT_SCOPES,
    })
    expect(issued._unsafeUnwrap().token.scopes).toEqual(RESOURCE_BOT_SCOPES)
  })

  describe('expiry, as issueToken without a day', () => {
    it('absent or null: today + the maximum lifetime when expiry is required', async () => {
      const w = await world({ maxLifetimeDays: 30 })
      for (const expiresAt of [undefined, null]) {
        const issued = await w.authority.resources.issue({
          resource: PROJECT,
          name: 'ci',
          scopes: ['api'],
          ...(expiresAt === undefined ? {} : { expiresAt }),
        })
        expect(issued._unsafeUnwrap().token.expiresAt).toBe('2026-04-09')
      }
      const human = await w.authority.issueToken({ userId: OWNER.id, name: 'ci', scopes: ['api'] })
      expect(human._unsafeUnwrap().token.expiresAt).toBe('2026-04-09')
    })

    it('absent or null: never when expiry is not required', async () => {
      const w = await world({ requireExpiry: false })
      for (const expiresAt of [undefined, null]) {
        const issued = await w.authority.resources.issue({
          resource: GROUP,
          name: 'ci',
          scopes: ['api'],
          ...(expiresAt === undefined ? {} : { expiresAt }),
        })
        expect(issued._unsafeUnwrap().token.expiresAt).toBeNull()
      }
    })
  })

  describe('refusals leave no bot behind', () => {
    const cases: [string, Record<string, unknown>, unknown][] = [
      [
        'a scope outside resource_bot_scopes (read_user)',
        { scopes: ['api', 'read_user'] },
        { type: 'invalid_parameter', parameter: 'scopes', reason: 'not_allowed_value' },
      ],
      [
        'an administrator scope (sudo)',
        { scopes: ['sudo'] },
        { type: 'invalid_parameter', parameter: 'scopes', reason: 'not_allowed_value' },
      ],
      [
        'an unknown access level',
        { accessLevel: 35 },
        { type: 'invalid_parameter', parameter: 'access_level', reason: 'not_allowed_value' },
      ],
      [
        'a day beyond the maximum lifetime',
        { expiresAt: '2027-12-31' },
        { type: 'invalid_expiry', message: 'Expiration date must be before 2027-03-10' },
      ],
      ['a day that is no date', { expiresAt: '2026-02-30' }, { type: 'invalid_parameter' }],
      [
        'an unknown project',
        { resource: { type: 'project', id: 99 } },
        { type: 'not_found', entity: 'project' },
      ],
      ['an unknown group', { resource: { type: 'group', id: 99 } }, { type: 'not_found', entity: 'group' }],
      ['no name', { name: '' }, { type: 'validation_failed' }],
    ]
    for (const [what, fields, error] of cases) {
      it(what, async () => {
        const w = await world()
        const issued = await w.authority.resources.issue({
          resource: PROJECT,
          name: 'ci',
          scopes: ['api'],
          ...fields,
        } as Parameters<typeof w.authority.resources.issue>[0])
        expect(issued._unsafeUnwrapErr()).toMatchObject(error as object)
        expect(await w.bots()).toEqual([])
        expect(w.events).toEqual([])
        const project = (await w.resources.findProject(7))._unsafeUnwrap()
        expect(project?.members).toEqual([])
      })
    }
  })

  it('every access level GitLab knows is accepted', async () => {
    const w = await world()
    for (const accessLevel of [10, 15, 20, 30, 40, 50] satisfies AccessLevel[]) {
      const issued = await w.authority.resources.issue({
        resource: GROUP,
        name: 'ci',
        scopes: ['api'],
        accessLevel,
      })
      expect(issued._unsafeUnwrap().accessLevel).toBe(accessLevel)
    }
  })
})
