import type { AccessLevel, Group, Project, ResourceType, Visibility } from '../../../src/store/index.js'
import type { TokenStore } from '../../../src/store/token-store.js'
import { daysFromToday, gitlabSpecWorld, type Reply, type SpecUser, type TokenInfo } from './world.js'

// GitLab's factories for the resource access token specs, beside world.ts: groups, projects and
// members go through the fake's store (`gitlab.store.resources`), and every user (humans and bots)
// is made there too, so their ids never collide. `bot(resource, level)` is GitLab's
// `create(:user, :project_bot)` made a member; `botToken(bot)` its `create(:personal_access_token)`.

export interface ResourceWorldOptions {
  readonly store?: TokenStore
  readonly requireExpiry?: boolean
  readonly release?: `${number}.${number}`
}

export type ResourceWorld = Awaited<ReturnType<typeof resourceWorld>>

export async function resourceWorld(options: ResourceWorldOptions = {}) {
  const w = await gitlabSpecWorld(options)
  const resources = w.gitlab.store.resources
  if (resources === undefined) throw new Error('the store holds no resources')
  let nextGroup = 1
  let nextProject = 1

  async function human(name: string, admin = false): Promise<SpecUser & { name: string }> {
    const made = await resources!.createUser({
      username: name.toLowerCase().replace(/\W+/g, '_'),
      name,
      admin,
      blocked: false,
    })
    if (made.isErr()) throw made.error
    return { id: made.value.id as number, username: made.value.username, admin, name }
  }

  async function group(visibility: Visibility = 'private', parentId: number | null = null): Promise<Group> {
    const id = nextGroup++
    const put = await resources!.putGroup({
      id,
      path: `group${id}`,
      fullPath: parentId === null ? `group${id}` : `group${parentId}/group${id}`,
      name: `Group ${id}`,
      parentId,
      visibility,
      members: [],
    })
    if (put.isErr()) throw put.error
    return put.value
  }

  async function project(groupId: number | null, visibility: Visibility = 'private'): Promise<Project> {
    const id = nextProject++
    const put = await resources!.putProject({
      id,
      path: `project${id}`,
      fullPath: groupId === null ? `project${id}` : `group${groupId}/project${id}`,
      name: `Project ${id}`,
      groupId,
      visibility,
      members: [],
    })
    if (put.isErr()) throw put.error
    return put.value
  }

  async function member(type: ResourceType, id: number, user: { id: number }, accessLevel: AccessLevel) {
    const set = await resources!.setMember({ type, id }, { userId: user.id, accessLevel })
    if (set.isErr()) throw set.error
  }

  let nextBot = 1
  /** `create(:user, :project_bot)` and its membership. */
  async function bot(type: ResourceType, id: number, accessLevel: AccessLevel) {
    const n = nextBot++
    const made = await resources!.createUser({
      username: `${type}_${id}_bot_${n}`,
      name: `Bot ${n}`,
      admin: false,
      blocked: false,
      bot: true,
      botNamespace: { type, id },
    })
    if (made.isErr()) throw made.error
    const user = {
      id: made.value.id as number,
      username: made.value.username,
      admin: false,
      name: `Bot ${n}`,
    }
    await member(type, id, user, accessLevel)
    return user
  }

  /** `create(:personal_access_token, user: bot, ...)`. */
  function botToken(user: SpecUser, fields: Parameters<typeof w.token>[0] = {}): Promise<TokenInfo> {
    return w.token({ user, expiresAt: daysFromToday(30), ...fields })
  }

  const root = await human('Root', true)
  const rootToken = await w.token({
    user: root,
    scopes: ['api', 'admin_mode'],
    expiresAt: daysFromToday(300),
  })
  /** The token's state as the store has it. */
  async function reload(id: number) {
    const r = await w.send('GET', `/personal_access_tokens/${id}`, rootToken.secret)
    if (r.status !== 200) throw new Error(`token ${id}: ${r.status} ${r.text}`)
    return r.json as { revoked: boolean; active: boolean; expires_at: string | null; user_id: number }
  }
  async function userExists(id: number): Promise<boolean> {
    return (await w.send('GET', `/users/${id}`, rootToken.secret)).status === 200
  }

  return { ...w, resources, human, group, project, member, makeBot: bot, botToken, reload, userExists }
}

/** The ids of a list answer. */
export function idsOf(reply: Reply): number[] {
  return (reply.json as { id: number }[]).map((t) => t.id)
}
