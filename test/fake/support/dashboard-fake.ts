import { createFakeGitLab, type FakeGitLab, type FakeGitLabOptions } from '../../../src/fake/fake-gitlab.js'

// A fake over a real socket for the dashboard's read routes: alice and bob with tokens in every
// state, a group and a project each with a bot and its token.

export const ALICE = 'glpat-dashboard-alice-0001'

const scopes = ['api' as const]

/** 2 humans, 2 bots, a service account; 40 tokens of alice's and bob's in varied states, 2 bot tokens. */
export const DASHBOARD_SEED = {
  users: [
    { id: 1, username: 'root', admin: true },
    { id: 2, username: 'alice', name: 'Alice' },
    { id: 3, username: 'bob', blocked: true },
    { id: 4, username: 'group_1_bot_a', bot: true, bot_namespace: { type: 'group' as const, id: 1 } },
    { id: 5, username: 'project_1_bot_b', bot: true, bot_namespace: { type: 'project' as const, id: 1 } },
    { id: 6, username: 'service_account_x', service_account: true, provisioned_by_group_id: 1 },
  ],
  groups: [
    {
      id: 1,
      path: 'acme',
      name: 'Acme',
      members: [
        { user_id: 2, access_level: 50 },
        { user_id: 4, access_level: 40 },
      ],
    },
  ],
  projects: [
    {
      id: 1,
      path: 'api',
      name: 'API',
      group_id: 1,
      visibility: 'internal' as const,
      members: [{ user_id: 5, access_level: 30 }],
    },
  ],
  tokens: [
    { id: 1, user_id: 2, name: 'ci', scopes, token: ALICE, expires_at: '2027-01-01' },
    ...Array.from({ length: 39 }, (_, i) => ({
      id: i + 2,
      user_id: i % 3 === 0 ? 3 : 2,
      name: `token ${i % 7} deploy`,
      scopes,
      token: `glpat-dashboard-token-${String(i).padStart(4, '0')}`,
      created_at: new Date(Date.UTC(2025, 0, 1 + i)).toISOString(),
      expires_at: i % 5 === 0 ? '2026-01-01' : `2026-0${1 + (i % 9)}-1${i % 10}`,
      revoked: i % 4 === 0,
      last_used_at: i % 2 === 0 ? null : new Date(Date.UTC(2025, 5, 1 + i)).toISOString(),
    })),
    {
      id: 41,
      user_id: 4,
      name: 'group-bot',
      scopes,
      token: 'glpat-dashboard-group-bot',
      expires_at: '2027-01-01',
    },
    {
      id: 42,
      user_id: 5,
      name: 'project-bot',
      scopes,
      token: 'glpat-dashboard-project-bot',
      expires_at: '2027-01-01',
    },
  ],
}

const running: FakeGitLab[] = []

/** Starts a fake (closed by {@link closeAll}). */
export async function startDashboardFake(options: FakeGitLabOptions = {}): Promise<FakeGitLab> {
  const gitlab = await createFakeGitLab({ ...DASHBOARD_SEED, ...options })
  running.push(gitlab)
  return gitlab
}

/** Closes every fake started. */
export async function closeAll(): Promise<void> {
  await Promise.all(running.splice(0).map((gitlab) => gitlab.close()))
}

/** A control GET: status, headers and the parsed body. */
export async function controlGet(gitlab: FakeGitLab, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${gitlab.url}/__patkit${path}`, { headers })
  const text = await response.text()
  return { status: response.status, headers: response.headers, body: JSON.parse(text) as unknown }
}
