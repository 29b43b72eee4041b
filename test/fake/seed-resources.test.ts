import { describe, expect, it } from 'vitest'
import { type Seed, validateSeed } from '../../src/fake/seed/seed-schema.js'
import { memoryStore } from '../../src/memory/index.js'
import type { TokenStore } from '../../src/store/index.js'
import { control, fakeOver, snapshotOf, startFake } from './support/data-fake.js'

// Groups, projects, members, bots and service accounts in the seed format: what a seed writes (full
// paths, GitLab's defaults), and every problem refused before anything is written, by its seed path.

const BOT_SECRET = 'glpat-resource-bot-secret-01'

const WORLD: Seed = {
  users: [
    { id: 1, username: 'root', admin: true },
    { id: 2, username: 'alice', name: 'Alice Liddell' },
    {
      id: 3,
      username: 'project_7_bot_0f3a',
      name: 'deploy',
      bot: true,
      bot_namespace: { type: 'project', id: 7 },
    },
    { id: 4, username: 'service_account_group_1_9c2e', service_account: true, provisioned_by_group_id: 1 },
  ],
  groups: [
    // A subgroup listed before its parent: the order of the list does not matter.
    { id: 3, path: 'platform', name: 'Platform', parent_id: 1, members: [{ user_id: 2, access_level: 50 }] },
    { id: 1, path: 'acme', name: 'Acme', visibility: 'internal' },
  ],
  projects: [
    {
      id: 7,
      path: 'api',
      name: 'API',
      group_id: 3,
      members: [
        { user_id: 2, access_level: 40 },
        { user_id: 3, access_level: 40 },
      ],
    },
    // Project ids are their own sequence: project 1 and group 1 are two things.
    { id: 1, path: 'dotfiles', name: 'dotfiles', visibility: 'public' },
  ],
  tokens: [{ id: 5, user_id: 3, name: 'deploy', scopes: ['api', 'self_rotate'], token: BOT_SECRET }],
}

async function problemsOf(seed: Seed, store?: TokenStore) {
  const started = await startFake({ seed, ...(store === undefined ? {} : { store }) })
  return started.ok ? [] : started.problems
}

describe('a seed with groups, projects and members', () => {
  it('writes them with their full paths, GitLab defaults (private, no members) and the users’ kinds', async () => {
    const fake = await fakeOver({ seed: WORLD })
    const resources = fake.store.resources
    expect(resources).toBeDefined()
    expect((await resources?.findGroup('ACME/platform'))?._unsafeUnwrap()).toEqual({
      id: 3,
      path: 'platform',
      fullPath: 'acme/platform',
      name: 'Platform',
      parentId: 1,
      visibility: 'private',
      members: [{ userId: 2, accessLevel: 50 }],
    })
    expect((await resources?.findProject('acme/platform/api'))?._unsafeUnwrap()).toMatchObject({
      id: 7,
      groupId: 3,
      visibility: 'private',
    })
    expect((await resources?.findProject(1))?._unsafeUnwrap()).toMatchObject({
      fullPath: 'dotfiles',
      groupId: null,
      visibility: 'public',
      members: [],
    })
    expect((await fake.store.findUser(3))._unsafeUnwrap()).toEqual({
      id: 3,
      username: 'project_7_bot_0f3a',
      admin: false,
      blocked: false,
      name: 'deploy',
      bot: true,
      botNamespace: { type: 'project', id: 7 },
    })
    expect((await fake.store.findUser(4))._unsafeUnwrap()).toMatchObject({
      serviceAccount: true,
      provisionedByGroupId: 1,
    })
    // A bot's token is a token of a bot user: it authenticates like any other.
    const self = await fake.handler(
      new Request('http://127.0.0.1/api/v4/personal_access_tokens/self', {
        headers: { 'PRIVATE-TOKEN': BOT_SECRET },
      }),
    )
    expect(self.status).toBe(200)
    expect(await self.json()).toMatchObject({ id: 5, user_id: 3 })
  })

  it('counts groups and projects in what a restore answers', async () => {
    const fake = await fakeOver()
    expect(await control(fake, 'PUT', '/state', WORLD)).toEqual({
      status: 200,
      body: { users: 4, tokens: 1, groups: 2, projects: 2 },
    })
  })
})

describe('the seed schema refuses, naming the field', () => {
  it.each<[string, Seed, string, string]>([
    [
      'two groups with one id',
      {
        groups: [
          { id: 1, path: 'ga', name: 'A' },
          { id: 1, path: 'gb', name: 'B' },
        ],
      },
      'groups[1].id',
      'Duplicate group id 1',
    ],
    [
      'two projects with one id',
      {
        projects: [
          { id: 2, path: 'ga', name: 'A' },
          { id: 2, path: 'gb', name: 'B' },
        ],
      },
      'projects[1].id',
      'Duplicate project id 2',
    ],
    [
      'an access level GitLab does not have',
      { groups: [{ id: 1, path: 'ga', name: 'A', members: [{ user_id: 1, access_level: 0 }] }] },
      'groups[0].members[0].access_level',
      'access_level must be one of 10, 15, 20, 30, 40, 50',
    ],
    [
      'a member listed twice',
      {
        projects: [
          {
            id: 1,
            path: 'a',
            name: 'A',
            members: [
              { user_id: 1, access_level: 10 },
              { user_id: 1, access_level: 40 },
            ],
          },
        ],
      },
      'projects[0].members[1].user_id',
      'User 1 is listed twice among the members',
    ],
    [
      'a path with a slash',
      { groups: [{ id: 1, path: 'a/b', name: 'A' }] },
      'groups[0].path',
      // GitLab's messages: lib/gitlab/regex.rb (oci_repository_path_regex), lib/gitlab/path_regex.rb.
      "Path can only include non-accented letters, digits, '_', '-' and '.'. It must not start with '-', '_', or '.', nor end with '-', '_', '.', '.git', or '.atom'. and Path can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or end in '.', '.git' or '.atom'.",
    ],
    [
      'a top-level group with a reserved path',
      { groups: [{ id: 1, path: 'API', name: 'A' }] },
      'groups[0].path',
      'Path API is a reserved name',
    ],
    [
      'a group path of one character',
      { groups: [{ id: 1, path: 'g', name: 'G' }] },
      'groups[0].path',
      'Path is too short (minimum is 2 characters)',
    ],
    [
      'a project with a reserved path',
      { projects: [{ id: 1, path: 'blob', name: 'B' }] },
      'projects[0].path',
      'Path blob is a reserved name',
    ],
    [
      'a bot without bot_namespace',
      { users: [{ id: 3, username: 'bot', bot: true }] },
      'users[0].bot_namespace',
      'A bot needs bot_namespace: the project or group it belongs to',
    ],
    [
      'bot_namespace on a human',
      { users: [{ id: 3, username: 'human', bot_namespace: { type: 'group', id: 1 } }] },
      'users[0].bot_namespace',
      'Only a bot (bot: true) has a bot_namespace',
    ],
    [
      'provisioned_by_group_id on a user that is no service account',
      { users: [{ id: 3, username: 'human', provisioned_by_group_id: 1 }] },
      'users[0].provisioned_by_group_id',
      'Only a service account (service_account: true) is provisioned by a group',
    ],
    [
      'an unknown field of a group',
      { groups: [{ id: 1, path: 'ga', name: 'A', full_path: 'a' } as never] },
      'groups[0].full_path',
      'Unknown field',
    ],
  ])('%s', (_what, seed, path, message) => {
    const result = validateSeed(seed)
    expect(result.success).toBe(false)
    if (!result.success) expect(result.problems).toContainEqual({ path, message })
  })
})

describe('loading refuses, against the stored data, before any write', () => {
  const humans = [
    { id: 1, username: 'root', admin: true },
    { id: 2, username: 'alice' },
  ]
  it.each<[string, Seed, { path: string; message: string }]>([
    [
      'an unknown parent group',
      { users: humans, groups: [{ id: 1, path: 'ga', name: 'A', parent_id: 9 }] },
      { path: 'groups[0].parent_id', message: 'No group with id 9' },
    ],
    [
      'an unknown group of a project',
      { users: humans, projects: [{ id: 1, path: 'ga', name: 'A', group_id: 9 }] },
      { path: 'projects[0].group_id', message: 'No group with id 9' },
    ],
    [
      'groups forming a cycle',
      {
        users: humans,
        groups: [
          { id: 1, path: 'ga', name: 'A', parent_id: 2 },
          { id: 2, path: 'gb', name: 'B', parent_id: 1 },
        ],
      },
      { path: 'groups[0].parent_id', message: 'Groups would form a cycle: 1 → 2 → 1' },
    ],
    [
      'two groups with one full path, in another case',
      {
        users: humans,
        groups: [
          { id: 1, path: 'acme', name: 'A' },
          { id: 2, path: 'ACME', name: 'B' },
        ],
      },
      { path: 'groups[1].path', message: 'The full path "ACME" belongs to group 1 (full paths ignore case)' },
    ],
    [
      'a member who is no user',
      {
        users: humans,
        groups: [{ id: 1, path: 'ga', name: 'A', members: [{ user_id: 8, access_level: 30 }] }],
      },
      { path: 'groups[0].members[0].user_id', message: 'No user with id 8' },
    ],
    [
      'a bot of an unknown project',
      {
        users: [
          ...humans,
          { id: 3, username: 'bot-b', bot: true, bot_namespace: { type: 'project', id: 4 } },
        ],
      },
      { path: 'users[2].bot_namespace', message: 'No project with id 4' },
    ],
    [
      'a service account provisioned by a subgroup',
      {
        users: [...humans, { id: 3, username: 'sa', service_account: true, provisioned_by_group_id: 2 }],
        groups: [
          { id: 1, path: 'ga', name: 'A' },
          { id: 2, path: 'gb', name: 'B', parent_id: 1 },
        ],
      },
      {
        path: 'users[2].provisioned_by_group_id',
        message: 'Group 2 is a subgroup: service accounts are provisioned by top-level groups',
      },
    ],
    [
      'a bot token with read_user',
      {
        users: [...humans, { id: 3, username: 'bot-b', bot: true, bot_namespace: { type: 'group', id: 1 } }],
        groups: [{ id: 1, path: 'ga', name: 'A', members: [{ user_id: 3, access_level: 40 }] }],
        tokens: [{ user_id: 3, name: 't', scopes: ['api', 'read_user'], token: 'glpat-bot-read-user-1' }],
      },
      {
        path: 'tokens[0].scopes[1]',
        message:
          'User 3 is a bot: its tokens cannot hold read_user (bots get no read_user, sudo, admin_mode or read_service_ping)',
      },
    ],
  ])('%s', async (_what, seed, problem) => {
    expect(await problemsOf(seed)).toContainEqual(problem)
  })

  it('a refused restore leaves groups, projects and users as they were', async () => {
    const fake = await fakeOver({ seed: WORLD })
    const before = await snapshotOf(fake)
    const broken = { ...WORLD, projects: [{ id: 9, path: 'x', name: 'X', group_id: 77 }] }
    const refused = await control(fake, 'PUT', '/state', broken)
    expect(refused.status).toBe(400)
    expect(await snapshotOf(fake)).toEqual(before)
  })

  it('adding a subgroup to a stored group, and renaming the stored group, updates the full paths below', async () => {
    const fake = await fakeOver({ seed: WORLD })
    const added = await fake.state.add({ groups: [{ id: 1, path: 'acme-corp', name: 'Acme Corp' }] })
    expect(added.isOk()).toBe(true)
    const resources = fake.store.resources
    expect((await resources?.findProject(7))?._unsafeUnwrap()?.fullPath).toBe('acme-corp/platform/api')
    expect((await resources?.findGroup(3))?._unsafeUnwrap()?.fullPath).toBe('acme-corp/platform')
  })

  it('a store without projects and groups refuses them', async () => {
    const store = memoryStore()
    const { resources: _, ...bare } = store
    expect(await problemsOf({ groups: [{ id: 1, path: 'ga', name: 'A' }] }, bare)).toEqual([
      { path: 'groups', message: 'This store holds no projects or groups (it has no store.resources)' },
    ])
  })
})

describe('a snapshot carries what the API created', () => {
  it('a bot and a service account the store created, with a minted token, and the memberships set later', async () => {
    const fake = await fakeOver({ seed: WORLD })
    const resources = fake.store.resources
    if (resources === undefined) throw new Error('the memory store holds resources')
    const bot = (
      await resources.createUser({
        username: 'group_1_bot_77',
        name: 'group deploy',
        admin: false,
        blocked: false,
        bot: true,
        botNamespace: { type: 'group', id: 1 },
      })
    )._unsafeUnwrap()
    const account = (
      await resources.createUser({
        username: 'service_account_9',
        admin: false,
        blocked: false,
        serviceAccount: true,
        provisionedByGroupId: null,
      })
    )._unsafeUnwrap()
    ;(
      await resources.setMember({ type: 'group', id: 1 }, { userId: bot.id as number, accessLevel: 30 })
    )._unsafeUnwrap()
    const minted = (
      await fake.authority.issueToken({ userId: bot.id, name: 'minted', scopes: ['read_api'] })
    )._unsafeUnwrap()
    const snapshot = await snapshotOf(fake)
    expect(snapshot.users).toContainEqual({
      id: bot.id,
      username: 'group_1_bot_77',
      admin: false,
      blocked: false,
      name: 'group deploy',
      bot: true,
      bot_namespace: { type: 'group', id: 1 },
    })
    expect(snapshot.users).toContainEqual({
      id: account.id,
      username: 'service_account_9',
      admin: false,
      blocked: false,
      service_account: true,
    })
    expect(snapshot.groups.find((g) => g.id === 1)?.members).toEqual([{ user_id: bot.id, access_level: 30 }])
    expect(snapshot.tokens.find((t) => t.id === minted.token.id)).toMatchObject({
      token_digest: minted.token.digest,
    })
    expect((await control(fake, 'PUT', '/state', snapshot)).status).toBe(200)
    expect(await snapshotOf(fake)).toEqual(snapshot)
  })
})

describe('createFakeGitLab takes groups and projects', () => {
  it('serves a bot token of a seeded project, and a reset brings the resources back', async () => {
    const { createFakeGitLab } = await import('../../src/fake/fake-gitlab.js')
    const gitlab = await createFakeGitLab({
      users: WORLD.users ?? [],
      groups: WORLD.groups ?? [],
      projects: WORLD.projects ?? [],
      tokens: WORLD.tokens ?? [],
    })
    try {
      const self = () =>
        fetch(`${gitlab.apiUrl}/personal_access_tokens/self`, { headers: { 'PRIVATE-TOKEN': BOT_SECRET } })
      // Before the token is used (a use sets last_used_at).
      const before = await gitlab.snapshot()
      expect((await self()).status).toBe(200)
      expect(before.projects.map((p) => p.id)).toEqual([1, 7])
      await gitlab.restore({})
      expect((await gitlab.snapshot()).groups).toEqual([])
      await gitlab.reset()
      expect(await gitlab.snapshot()).toEqual(before)
      expect((await self()).status).toBe(200)
    } finally {
      await gitlab.close()
    }
  })
})

describe('POST /__patkit/groups and /__patkit/projects', () => {
  it('add groups and projects to the data in place, or replace them by id', async () => {
    const fake = await fakeOver()
    expect(
      await control(fake, 'POST', '/groups', {
        id: 1,
        path: 'acme',
        name: 'Acme',
        members: [{ user_id: 2, access_level: 50 }],
      }),
    ).toEqual({
      status: 201,
      body: [{ id: 1, path: 'acme', name: 'Acme', members: [{ user_id: 2, access_level: 50 }] }],
    })
    expect(
      (await control(fake, 'POST', '/projects', [{ id: 4, path: 'api', name: 'API', group_id: 1 }])).status,
    ).toBe(201)
    expect((await fake.store.resources?.findProject('acme/api'))?._unsafeUnwrap()?.id).toBe(4)
    // The seed's users and tokens are still there: an add, not a restore.
    expect((await snapshotOf(fake)).tokens.length).toBeGreaterThan(0)
    expect(
      await control(fake, 'POST', '/projects', { id: 5, path: 'web', name: 'Web', group_id: 8 }),
    ).toEqual({
      status: 400,
      body: {
        error: 'invalid project',
        problems: [{ path: 'projects[0].group_id', message: 'No group with id 8' }],
      },
    })
    expect(await control(fake, 'POST', '/groups', 7)).toEqual({
      status: 400,
      body: { error: 'the body must be a JSON object or array: a group or groups in the seed format' },
    })
  })
})

describe('an add that moves stored groups', () => {
  it('takes a path a stored group gives up earlier in the same write', async () => {
    const fake = await fakeOver({ seed: WORLD })
    // Group 1 (acme) becomes acme-old; a new group 5 takes acme: group 1 is written first.
    const added = await fake.state.add({
      groups: [
        { id: 5, path: 'acme', name: 'New Acme' },
        { id: 1, path: 'acme-old', name: 'Acme' },
      ],
    })
    expect(added.isOk()).toBe(true)
    expect((await fake.store.resources?.findGroup('acme'))?._unsafeUnwrap()?.id).toBe(5)
    expect((await fake.store.resources?.findProject(7))?._unsafeUnwrap()?.fullPath).toBe(
      'acme-old/platform/api',
    )
  })

  it('refuses two stored groups trading paths, before any write', async () => {
    const fake = await fakeOver({
      seed: {
        users: [{ id: 1, username: 'root', admin: true }],
        groups: [
          { id: 1, path: 'ga', name: 'A' },
          { id: 2, path: 'gb', name: 'B' },
        ],
      },
    })
    const before = await snapshotOf(fake)
    const refused = await fake.state.add({
      groups: [
        { id: 1, path: 'gb', name: 'A' },
        { id: 2, path: 'ga', name: 'B' },
      ],
    })
    expect(refused.isErr() && refused.error).toEqual([
      {
        path: 'groups[0].path',
        message:
          'The full path "gb" is still group 2\'s, which this write moves later: give group 2 its new path in an earlier write',
      },
    ])
    expect(await snapshotOf(fake)).toEqual(before)
  })
})
