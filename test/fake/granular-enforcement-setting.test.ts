import { describe, expect, it } from 'vitest'
import type { FakeAuthority } from '../../src/fake/fake-authority.js'
import { createFakeGitLab } from '../../src/fake/index.js'
import { type Seed, validateSeed } from '../../src/fake/seed/seed-schema.js'
import { control, fakeOver, snapshotOf } from './support/data-fake.js'

// GitLab.com's top-level group setting `enforce_granular_tokens` + `granular_tokens_enforced_after`
// (namespace_settings; no REST attribute; shared/reference fine-grained-pats.md §12), as a seed and the
// control API give it. The rule is AuthorizeGranularScopesService#granular_token_required?
// (app/services/authz/tokens/authorize_granular_scopes_service.rb; §6): a legacy token, of a human
// user (`token.user.human?`), on a route whose boundary's root namespace enforces, is checked as a
// fine-grained token without permissions. The shared example 'authorizing granular token permissions'
// (spec/support, #56354685971) sets `granular_tokens_enforced_after: Date.current` on the top-level
// group and expects 403 `insufficient_granular_scope` with an error_description including
// 'Access denied: This operation requires a fine-grained personal access token'. The fake's clock
// starts at 2026-01-01.

const ALICE = 'glpat-enforce-alice-legacy-01'
const ALICE_FINE = 'glpat-enforce-alice-granular1'
const BOT = 'glpat-enforce-project-bot-001'
const SERVICE = 'glpat-enforce-service-acct-01'
const DENIED = 'Access denied: This operation requires a fine-grained personal access token'

function world(enforcedAfter: string | null): Seed {
  return {
    users: [
      { id: 2, username: 'alice' },
      { id: 3, username: 'project_7_bot_e1', bot: true, bot_namespace: { type: 'project', id: 7 } },
      { id: 4, username: 'service_account_e1', service_account: true },
    ],
    groups: [
      {
        id: 1,
        path: 'acme',
        name: 'Acme',
        members: [
          { user_id: 2, access_level: 50 },
          { user_id: 4, access_level: 30 },
        ],
        ...(enforcedAfter === null
          ? {}
          : { enforce_granular_tokens: true, granular_tokens_enforced_after: enforcedAfter }),
      },
      { id: 2, path: 'platform', name: 'Platform', parent_id: 1 },
      { id: 3, path: 'other', name: 'Other', members: [{ user_id: 2, access_level: 50 }] },
    ],
    projects: [
      { id: 7, path: 'api', name: 'API', group_id: 2, members: [{ user_id: 3, access_level: 30 }] },
      { id: 8, path: 'tools', name: 'Tools', group_id: 3 },
      { id: 9, path: 'dotfiles', name: 'dotfiles' },
    ],
    tokens: [
      { id: 1, user_id: 2, name: 'legacy', scopes: ['api'], token: ALICE },
      {
        id: 2,
        user_id: 2,
        name: 'fine',
        granular_scopes: [{ access: 'all_memberships', permissions: ['read_project', 'read_group'] }],
        token: ALICE_FINE,
      },
      {
        id: 3,
        user_id: 3,
        name: 'bot',
        scopes: ['api', 'self_rotate'],
        token: BOT,
        expires_at: '2026-06-01',
      },
      { user_id: 4, name: 'service', scopes: ['api'], token: SERVICE },
    ],
  }
}

async function get(fake: FakeAuthority, path: string, secret: string) {
  const response = await fake.handler(
    new Request(`http://127.0.0.1/api/v4${path}`, { headers: { 'PRIVATE-TOKEN': secret } }),
  )
  return { status: response.status, json: (await response.json()) as unknown }
}

describe('a top-level group enforcing fine-grained tokens', () => {
  it('is off by default: a legacy token reads the group’s projects as in GitLab', async () => {
    const fake = await fakeOver({ seed: world(null) })
    expect((await get(fake, '/projects/7', ALICE)).status).toBe(200)
    expect((await get(fake, '/groups/1', ALICE)).status).toBe(200)
  })

  it('from its day on, refuses a human’s legacy token on the group, its subgroups and their projects with GitLab’s 403', async () => {
    const fake = await fakeOver({ seed: world('2026-01-01') })
    const project = await get(fake, '/projects/7', ALICE)
    expect(project).toEqual({
      status: 403,
      json: {
        error: 'insufficient_granular_scope',
        error_description: `${DENIED} with the following project permissions: [Project: Read].`,
      },
    })
    for (const path of ['/groups/1', '/groups/2', '/groups/acme%2Fplatform']) {
      const group = await get(fake, path, ALICE)
      expect(group.status).toBe(403)
      expect((group.json as { error_description: string }).error_description).toBe(
        `${DENIED} with the following group permissions: [Group: Read].`,
      )
    }
  })

  it('leaves other top-level groups, personal projects and user-boundary routes alone (root_namespaces of the boundary only)', async () => {
    const fake = await fakeOver({ seed: world('2026-01-01') })
    expect((await get(fake, '/projects/8', ALICE)).status).toBe(200)
    expect((await get(fake, '/groups/3', ALICE)).status).toBe(200)
    expect((await get(fake, '/personal_access_tokens/self', ALICE)).status).toBe(200)
    expect((await get(fake, '/user', ALICE)).status).toBe(200)
  })

  it('does not start before its day: the fake clock reaching it turns it on', async () => {
    const fake = await fakeOver({ seed: world('2026-01-02') })
    expect((await get(fake, '/projects/7', ALICE)).status).toBe(200)
    expect((await control(fake, 'POST', '/clock/advance', { days: 1 })).status).toBe(200)
    expect((await get(fake, '/projects/7', ALICE)).status).toBe(403)
  })

  it('leaves fine-grained tokens, bots and service accounts alone (token.legacy?, token.user.human?)', async () => {
    const fake = await fakeOver({ seed: world('2026-01-01') })
    expect((await get(fake, '/projects/7', ALICE_FINE)).status).toBe(200)
    expect((await get(fake, '/projects/7', BOT)).status).toBe(200)
    expect((await get(fake, '/groups/1', SERVICE)).status).toBe(200)
  })

  it('holds on routes whose use case authenticates (a project access token’s rotation): the owner’s legacy token refused, the bot’s own self-rotation not', async () => {
    const fake = await fakeOver({ seed: world('2026-01-01') })
    const post = async (path: string, secret: string) => {
      const response = await fake.handler(
        new Request(`http://127.0.0.1/api/v4${path}`, {
          method: 'POST',
          headers: { 'PRIVATE-TOKEN': secret },
        }),
      )
      return { status: response.status, json: (await response.json()) as unknown }
    }
    const refused = await post('/projects/7/access_tokens/3/rotate', ALICE)
    expect(refused.status).toBe(403)
    expect((refused.json as { error_description: string }).error_description).toContain(DENIED)
    expect((await post('/projects/7/access_tokens/self/rotate', BOT)).status).toBe(200)
    // Without the setting the owner's legacy token rotates it (GitLab's behaviour, unchanged).
    const plain = await fakeOver({ seed: world(null) })
    const rotated = await plain.handler(
      new Request('http://127.0.0.1/api/v4/projects/7/access_tokens/3/rotate', {
        method: 'POST',
        headers: { 'PRIVATE-TOKEN': ALICE },
      }),
    )
    expect(rotated.status).toBe(200)
  })

  it('is written back by a snapshot, kept by a restore, and undone by a reset to a seed without it', async () => {
    const fake = await fakeOver({ seed: world('2026-01-01') })
    const snapshot = await snapshotOf(fake)
    expect(snapshot.groups.find((g) => g.id === 1)).toMatchObject({
      enforce_granular_tokens: true,
      granular_tokens_enforced_after: '2026-01-01',
    })
    expect(snapshot.groups.find((g) => g.id === 2)).not.toHaveProperty('enforce_granular_tokens')
    const plain = await fakeOver({ seed: world(null) })
    expect((await control(plain, 'PUT', '/state', snapshot)).status).toBe(200)
    expect((await get(plain, '/projects/7', ALICE)).status).toBe(403)
    expect((await control(plain, 'POST', '/reset')).status).toBe(200)
    expect((await get(plain, '/projects/7', ALICE)).status).toBe(200)
  })

  it('is set and cleared through POST /__patkit/groups (a group put again without it loses it)', async () => {
    const fake = await fakeOver({ seed: world(null) })
    const acme = { id: 1, path: 'acme', name: 'Acme', members: [{ user_id: 2, access_level: 50 }] }
    const on = await control(fake, 'POST', '/groups', {
      ...acme,
      enforce_granular_tokens: true,
      granular_tokens_enforced_after: '2025-12-01',
    })
    expect(on.status).toBe(201)
    expect((await get(fake, '/projects/7', ALICE)).status).toBe(403)
    expect((await control(fake, 'POST', '/groups', acme)).status).toBe(201)
    expect((await get(fake, '/projects/7', ALICE)).status).toBe(200)
  })
})

describe('the journal of a legacy token refused by the setting', () => {
  it('says the top-level group enforces fine-grained tokens, not that a fine-grained token lacks a permission', async () => {
    const { users = [], groups = [], projects = [], tokens = [] } = world('2026-01-01')
    const gitlab = await createFakeGitLab({
      users,
      groups,
      projects,
      tokens,
      clock: new Date('2026-01-05T00:00:00Z'),
    })
    try {
      const response = await fetch(`${gitlab.apiUrl}/projects/7`, { headers: { 'PRIVATE-TOKEN': ALICE } })
      expect(response.status).toBe(403)
      const entry = gitlab.journal.query({ kind: 'request', limit: 1 }).entries[0]
      expect(entry?.kind === 'request' ? entry.reason : null).toEqual({
        code: 'insufficient_granular_scope',
        message:
          "the project's top-level group enforces fine-grained tokens (enforce_granular_tokens), and this legacy token is held to them: it lacks read_project",
        tokenId: 1,
        boundary: 'project',
        missing: ['read_project'],
      })
    } finally {
      await gitlab.close()
    }
  })
})

describe('the setting refused in a seed, naming the field', () => {
  const problems = (group: Record<string, unknown>) => {
    const result = validateSeed({ groups: [{ id: 1, path: 'acme', name: 'Acme' }, group] })
    return result.success ? [] : result.problems
  }

  it('on a subgroup: a top-level group’s setting (the group settings page shows it on a root group only)', () => {
    expect(
      problems({
        id: 2,
        path: 'sub',
        name: 'Sub',
        parent_id: 1,
        enforce_granular_tokens: true,
        granular_tokens_enforced_after: '2026-01-01',
      }),
    ).toEqual([
      {
        path: 'groups[1].enforce_granular_tokens',
        message: 'Only a top-level group has this setting: its subgroups and projects inherit it',
      },
    ])
  })

  it('without its day (the settings form: "Please enter a date value."), or with a day that does not exist', () => {
    expect(problems({ id: 2, path: 'beta', name: 'B', enforce_granular_tokens: true })).toEqual([
      {
        path: 'groups[1].granular_tokens_enforced_after',
        message:
          'enforce_granular_tokens needs granular_tokens_enforced_after: the day (YYYY-MM-DD) enforcement starts',
      },
    ])
    expect(
      problems({
        id: 2,
        path: 'beta',
        name: 'B',
        enforce_granular_tokens: true,
        granular_tokens_enforced_after: '2026-02-30',
      }),
    ).toMatchObject([{ path: 'groups[1].granular_tokens_enforced_after' }])
  })
})
