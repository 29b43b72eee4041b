import { describe, expect, it } from 'vitest'
import { manualClock } from '../../src/domain/clock.js'
import { seededRandom } from '../../src/domain/random.js'
import type { ResourceRef, Visibility } from '../../src/domain/resource.js'
import { createHandler } from '../../src/http/index.js'
import { createAuthority } from '../../src/index.js'
import { memoryStore } from '../../src/memory/index.js'
import { ADMIN, ALICE, BOB, T0 } from '../support/authority-fixtures.js'

// GitLab's `redacted_name` (app/models/concerns/has_user_type.rb, gitlabhq 0286e4c6; GitLab issue
// 346058), shown as `name` by every user entity (UserSafe, lib/api/entities/user_safe.rb 3107fe72): a
// project bot's name is `****` unless the viewer may read its group or project; anonymous callers
// never may.

async function world(visibility: Visibility, home: ResourceRef) {
  const store = memoryStore({ users: [ADMIN, ALICE, BOB] })
  const resources = store.resources
  if (resources === undefined) throw new Error('the memory store holds resources')
  const authority = createAuthority({ store, pepper: 'p', clock: manualClock(T0), random: seededRandom(4) })
  const members = [{ userId: ALICE.id, accessLevel: 10 as const }]
  ;(
    await resources.putGroup({
      id: 3,
      path: 'acme',
      fullPath: 'acme',
      name: 'Acme',
      parentId: null,
      visibility,
      members,
    })
  )._unsafeUnwrap()
  ;(
    await resources.putProject({
      id: 7,
      path: 'api',
      fullPath: 'acme/api',
      name: 'API',
      groupId: null,
      visibility,
      members,
    })
  )._unsafeUnwrap()
  const bot = (
    await authority.resources.issue({ resource: home, name: 'Deploy bot', scopes: ['api'] })
  )._unsafeUnwrap()
  const handler = createHandler(authority)
  const secret = async (userId: number) =>
    (
      await authority.issueToken({ userId, name: 't', scopes: ['read_user'], expiresAt: null })
    )._unsafeUnwrap().secret
  async function nameOf(path: string, token?: string) {
    const response = await handler(
      new Request(
        `http://gitlab.test/api/v4${path}`,
        token === undefined ? {} : { headers: { 'PRIVATE-TOKEN': token } },
      ),
    )
    const json = (await response.json()) as Record<string, unknown> | Record<string, unknown>[]
    return Array.isArray(json) ? json[0]?.['name'] : json['name']
  }
  const botId = bot.token.userId
  const botUser = (await store.findUser(botId as number))._unsafeUnwrap()
  return { nameOf, secret, botId, botUsername: botUser?.username ?? '' }
}

describe("a project bot's name (redacted_name)", () => {
  for (const home of [
    { type: 'project', id: 7 },
    { type: 'group', id: 3 },
  ] as const) {
    it(`${home.type} bot, private: a member and an administrator see it; a non-member gets ****`, async () => {
      const w = await world('private', home)
      expect(await w.nameOf(`/users/${w.botId}`, await w.secret(ALICE.id))).toBe('Deploy bot')
      expect(await w.nameOf(`/users/${w.botId}`, await w.secret(ADMIN.id))).toBe('Deploy bot')
      expect(await w.nameOf(`/users/${w.botId}`, await w.secret(BOB.id))).toBe('****')
      expect(await w.nameOf(`/users?username=${w.botUsername}`, await w.secret(BOB.id))).toBe('****')
    })

    it(`${home.type} bot, public: any signed-in user sees it; an anonymous caller never does`, async () => {
      const w = await world('public', home)
      expect(await w.nameOf(`/users/${w.botId}`, await w.secret(BOB.id))).toBe('Deploy bot')
      expect(await w.nameOf(`/users?username=${w.botUsername}`)).toBe('****')
    })
  }

  it('humans keep their name for everyone', async () => {
    const w = await world('private', { type: 'project', id: 7 })
    expect(await w.nameOf(`/users?username=alice`)).toBe('alice')
    expect(await w.nameOf(`/users/${ALICE.id}`, await w.secret(BOB.id))).toBe('alice')
  })
})
