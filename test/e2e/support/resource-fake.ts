import { createFakeGitLab, type FakeGitLab } from '../../../src/fake/index.js'
import type { User } from '../../../src/index.js'
import type { ResourceStore } from '../../../src/store/resource-store.js'

// The world the clients' project and group access token tests run against, put in place through the
// fake's store (store.resources and users with bot: true), so it does not depend on a seed format:
//
// - users: root (1, administrator), alice (2), bob (3), carol (4); bots project_1_bot (10, of project 1, a
//   Maintainer there) and group_1_bot (11, of group 1, a Maintainer there);
// - group 1 `acme` (private): alice Owner, carol Maintainer, group_1_bot Maintainer;
// - project 1 `acme/api` (private, in group 1): alice Maintainer (Owner through the group), bob
//   Developer, project_1_bot Maintainer;
// - tokens: an `api` token of root, alice, bob and carol, and each bot's `api` token (`deploy`,
//   `group-deploy`), expiring 2026-06-01. The clock is frozen at 2026-01-01 (the fake's default).

export const PROJECT = { id: 1, fullPath: 'acme/api' } as const
export const GROUP = { id: 1, fullPath: 'acme' } as const
export const PROJECT_BOT = 10
export const GROUP_BOT = 11
/** The day the fake's frozen clock shows, and the expiry GitLab gives a rotation without one. */
export const TODAY = '2026-01-01'
export const WEEK_LATER = '2026-01-08'

export interface ResourceFake {
  readonly fake: FakeGitLab
  /** `http://127.0.0.1:PORT` (clients add `/api/v4`). */
  readonly url: string
  readonly secrets: {
    readonly root: string
    readonly alice: string
    readonly bob: string
    readonly carol: string
    readonly projectBot: string
    readonly groupBot: string
  }
  /** The ids of the bots' tokens. */
  readonly tokenIds: { readonly projectBot: number; readonly groupBot: number }
}

function bot(id: number, username: string, name: string, type: 'project' | 'group'): User {
  return {
    id,
    username,
    name,
    admin: false,
    blocked: false,
    bot: true,
    botNamespace: { type, id: 1 },
  }
}

/** A fresh fake GitLab on a free port with the world above. */
export async function resourceFake(): Promise<ResourceFake> {
  const fake = await createFakeGitLab({
    users: [
      { id: 1, username: 'root', admin: true },
      { id: 2, username: 'alice' },
      { id: 3, username: 'bob' },
      { id: 4, username: 'carol' },
    ],
  })
  try {
    const resources = fake.store.resources as ResourceStore
    for (const user of [
      bot(PROJECT_BOT, 'project_1_bot_0a1b', 'deploy bot', 'project'),
      bot(GROUP_BOT, 'group_1_bot_2c3d', 'group deploy bot', 'group'),
    ]) {
      ;(await fake.authority.users.put(user))._unsafeUnwrap()
    }
    ;(
      await resources.putGroup({
        id: GROUP.id,
        path: 'acme',
        fullPath: GROUP.fullPath,
        name: 'Acme',
        parentId: null,
        visibility: 'private',
        members: [
          { userId: 2, accessLevel: 50 },
          { userId: 4, accessLevel: 40 },
          { userId: GROUP_BOT, accessLevel: 40 },
        ],
      })
    )._unsafeUnwrap()
    ;(
      await resources.putProject({
        id: PROJECT.id,
        path: 'api',
        fullPath: PROJECT.fullPath,
        name: 'API',
        groupId: GROUP.id,
        visibility: 'private',
        members: [
          { userId: 2, accessLevel: 40 },
          { userId: 3, accessLevel: 30 },
          { userId: PROJECT_BOT, accessLevel: 40 },
        ],
      })
    )._unsafeUnwrap()
    const issue = (userId: number, name: string) =>
      fake.issueToken({ userId, name, scopes: ['api'], expiresAt: '2026-06-01' })
    const root = await issue(1, 'root-api')
    const alice = await issue(2, 'alice-api')
    const bob = await issue(3, 'bob-api')
    const carol = await issue(4, 'carol-api')
    const projectBot = await issue(PROJECT_BOT, 'deploy')
    const groupBot = await issue(GROUP_BOT, 'group-deploy')
    return {
      fake,
      url: fake.url,
      secrets: {
        root: root.secret,
        alice: alice.secret,
        bob: bob.secret,
        carol: carol.secret,
        projectBot: projectBot.secret,
        groupBot: groupBot.secret,
      },
      tokenIds: { projectBot: projectBot.token.id, groupBot: groupBot.token.id },
    }
  } catch (error) {
    await fake.close()
    throw error
  }
}
