import { describe, expect, it } from 'vitest'
import type { FakeAuthority } from '../../src/fake/fake-authority.js'
import { type Seed, validateSeed } from '../../src/fake/seed/seed-schema.js'
import { memoryStore } from '../../src/memory/index.js'
import { fakeOver, snapshotOf, sqliteStore, startFake } from './support/data-fake.js'

// Fine-grained tokens in the seed format: `granular_scopes` as GitLab's REST API takes them
// (lib/api/helpers/personal_access_tokens_helpers.rb `granular_scope_params`: access, permissions,
// project_ids, group_ids; `exactly_one_of :scopes, :granular_scopes`), checked with the API's own
// domain checks (checkGranularScopes), and served with GitLab's request-time check
// (Authz::Tokens::AuthorizeGranularScopesService; shared/reference fine-grained-pats.md §4).

const ALICE = 'glpat-seed-granular-alice-01'
const ALICE_PROJECT = 'glpat-seed-granular-alice-02'

const WORLD: Seed = {
  users: [
    { id: 1, username: 'root', admin: true },
    { id: 2, username: 'alice' },
  ],
  groups: [{ id: 1, path: 'acme', name: 'Acme', members: [{ user_id: 2, access_level: 50 }] }],
  projects: [
    { id: 7, path: 'api', name: 'API', group_id: 1 },
    { id: 8, path: 'web', name: 'Web', group_id: 1 },
  ],
  tokens: [
    {
      id: 20,
      user_id: 2,
      name: 'self-reader',
      granular_scopes: [{ access: 'user', permissions: ['read_personal_access_token'] }],
      token: ALICE,
      expires_at: '2027-01-01',
    },
    {
      id: 21,
      user_id: 2,
      name: 'api-reader',
      granular_scopes: [{ access: 'selected_memberships', permissions: ['read_project'], project_ids: [7] }],
      token: ALICE_PROJECT,
      expires_at: '2027-01-01',
    },
  ],
}

async function call(fake: FakeAuthority, path: string, secret: string) {
  const response = await fake.handler(
    new Request(`http://127.0.0.1/api/v4${path}`, { headers: { 'PRIVATE-TOKEN': secret } }),
  )
  return { status: response.status, json: (await response.json()) as unknown }
}

function problemsOf(seed: Seed): readonly { path: string; message: string }[] {
  const result = validateSeed(seed)
  return result.success ? [] : result.problems
}

const withToken = (token: Record<string, unknown>): Seed => ({
  ...WORLD,
  tokens: [{ user_id: 2, name: 't', token: 'glpat-seed-granular-other-1', ...token }],
})

describe('a seed token with granular_scopes', () => {
  it('is stored as a fine-grained token with the scopes the API would make (one per id)', async () => {
    const fake = await fakeOver({ seed: WORLD })
    const stored = (await fake.store.findById(21))._unsafeUnwrap()
    expect(stored?.scopes).toEqual([])
    expect(stored?.granularScopes).toEqual([
      { access: 'selected_memberships', permissions: ['read_project'], projectId: 7, groupId: null },
    ])
  })

  it('authenticates and reads where its scopes reach; elsewhere GitLab’s 403 (AuthorizeGranularScopesService)', async () => {
    const fake = await fakeOver({ seed: WORLD })
    const self = await call(fake, '/personal_access_tokens/self', ALICE)
    expect(self.status).toBe(200)
    expect(self.json).toMatchObject({ id: 20, granular: true })
    expect((await call(fake, '/projects/7', ALICE_PROJECT)).status).toBe(200)
    const refused = await call(fake, '/projects/7', ALICE)
    expect(refused).toEqual({
      status: 403,
      json: {
        error: 'insufficient_granular_scope',
        error_description:
          'Access denied: This operation requires a fine-grained personal access token with the following project permissions: [Project: Read].',
      },
    })
  })

  it('is written back by a snapshot as granular_scopes, and the snapshot restores the same token', async () => {
    const fake = await fakeOver({ seed: WORLD })
    const snapshot = await snapshotOf(fake)
    const token = snapshot.tokens.find((t) => t.id === 21)
    expect(token).toMatchObject({
      granular_scopes: [{ access: 'selected_memberships', permissions: ['read_project'], project_ids: [7] }],
    })
    expect(token !== undefined && 'scopes' in token).toBe(false)
    const again = await fakeOver({ seed: snapshot as Seed })
    expect(await snapshotOf(again)).toEqual(snapshot)
    expect((await call(again, '/projects/7', ALICE_PROJECT)).status).toBe(200)
  })

  it('is restored by its digest (a snapshot of an API-minted token) with its scopes, on SQLite too', async () => {
    const digest = (await (await fakeOver({ seed: WORLD })).store.findById(21))._unsafeUnwrap()?.digest
    if (digest === undefined) throw new Error('token 21 was seeded')
    const seeded = WORLD.tokens?.[1]
    if (seeded === undefined) throw new Error('the world has token 21')
    const { token: _secret, ...rest } = seeded
    const { store, close } = await sqliteStore()
    try {
      const fake = await fakeOver({
        seed: { ...WORLD, tokens: [{ ...rest, token_digest: digest }] },
        store,
        freshStore: undefined,
      })
      expect((await fake.store.findById(21))._unsafeUnwrap()?.granularScopes).toEqual([
        { access: 'selected_memberships', permissions: ['read_project'], projectId: 7, groupId: null },
      ])
      expect((await call(fake, '/projects/7', ALICE_PROJECT)).status).toBe(200)
      expect((await call(fake, '/projects/8', ALICE_PROJECT)).status).toBe(403)
    } finally {
      await close()
    }
  })
})

describe('a seed token’s granular_scopes refused, naming the field', () => {
  it('needs exactly one of scopes and granular_scopes', () => {
    expect(
      problemsOf(
        withToken({ scopes: ['api'], granular_scopes: [{ access: 'user', permissions: ['read_user'] }] }),
      ),
    ).toEqual([
      {
        path: 'tokens[0].scopes',
        message:
          'Give exactly one of scopes and granular_scopes (a legacy token has scopes, a fine-grained one granular_scopes)',
      },
    ])
    expect(problemsOf(withToken({}))).toMatchObject([{ path: 'tokens[0].scopes' }])
  })

  it('an unknown permission, at its place in the list', () => {
    expect(
      problemsOf(
        withToken({ granular_scopes: [{ access: 'user', permissions: ['read_user', 'read_repo'] }] }),
      ),
    ).toEqual([
      {
        path: 'tokens[0].granular_scopes[0].permissions[1]',
        message:
          'Unknown permission "read_repo": not one of GitLab\'s assignable permissions (docs/testing.md, "Fine-grained tokens in a seed", lists them)',
      },
    ])
  })

  it('an unknown access (GRANULAR_SCOPE_ACCESS_VALUES)', () => {
    expect(
      problemsOf(withToken({ granular_scopes: [{ access: 'everything', permissions: ['read_user'] }] })),
    ).toMatchObject([{ path: 'tokens[0].granular_scopes[0].access' }])
  })

  it('ids without selected_memberships, and selected_memberships without ids', () => {
    expect(
      problemsOf(
        withToken({
          granular_scopes: [
            { access: 'all_memberships', permissions: ['read_project'], project_ids: [7] },
            { access: 'selected_memberships', permissions: ['read_group'] },
          ],
        }),
      ),
    ).toEqual([
      {
        path: 'tokens[0].granular_scopes[0].project_ids',
        message: 'project_ids goes with access selected_memberships only, not all_memberships',
      },
      {
        path: 'tokens[0].granular_scopes[1].access',
        message: 'selected_memberships needs project_ids or group_ids: the projects and groups it reaches',
      },
    ])
  })

  it('the API’s checks, with its messages (GranularScopeService, CreateGranularService)', () => {
    expect(problemsOf(withToken({ granular_scopes: [] }))).toEqual([
      { path: 'tokens[0].granular_scopes', message: 'At least one granular scope must be provided' },
    ])
    expect(
      problemsOf(
        withToken({
          granular_scopes: [
            { access: 'user', permissions: ['read_user'] },
            { access: 'instance', permissions: ['read_user'] },
          ],
        }),
      ),
    ).toEqual([
      {
        path: 'tokens[0].granular_scopes',
        message: 'The token cannot have multiple instance-level granular scopes',
      },
    ])
    expect(
      problemsOf(
        withToken({
          granular_scopes: [
            { access: 'selected_memberships', permissions: ['read_project'], project_ids: [7, 7] },
          ],
        }),
      ),
    ).toEqual([
      {
        path: 'tokens[0].granular_scopes',
        message: 'The token cannot have multiple granular scopes for the same namespace',
      },
    ])
  })

  it('a project or group neither the seed nor the data has, before anything is written', async () => {
    const started = await startFake({
      seed: withToken({
        granular_scopes: [
          {
            access: 'selected_memberships',
            permissions: ['read_project'],
            project_ids: [7, 99],
            group_ids: [5],
          },
        ],
      }),
      store: memoryStore(),
    })
    expect(started.ok).toBe(false)
    if (started.ok) return
    expect(started.problems).toEqual([
      {
        path: 'tokens[0].granular_scopes[0].group_ids[0]',
        message: 'No group with id 5 in the seed or the data',
      },
      {
        path: 'tokens[0].granular_scopes[0].project_ids[1]',
        message: 'No project with id 99 in the seed or the data',
      },
    ])
  })
})

describe('a seed token’s permissions listed twice', () => {
  it('is refused at the second one', () => {
    expect(
      problemsOf(
        withToken({ granular_scopes: [{ access: 'user', permissions: ['read_user', 'read_user'] }] }),
      ),
    ).toEqual([
      {
        path: 'tokens[0].granular_scopes[0].permissions[1]',
        message: 'Permission "read_user" is listed twice',
      },
    ])
  })
})

describe('createFakeGitLab().issueToken with permissions', () => {
  it('takes GitLab’s assignable permissions: the fake’s vocabulary is GitLab’s', async () => {
    const { createFakeGitLab } = await import('../../src/fake/index.js')
    const { users = [], groups = [], projects = [] } = WORLD
    const gitlab = await createFakeGitLab({ users, groups, projects })
    try {
      const issued = await gitlab.issueToken({
        userId: 2,
        name: 'fine',
        permissions: [{ permissions: ['read_project'], boundary: { project: 7 } }],
      })
      expect(issued.token.granularScopes).toEqual([
        { access: 'selected_memberships', permissions: ['read_project'], projectId: 7, groupId: null },
      ])
      const read = (id: number) =>
        fetch(`${gitlab.apiUrl}/projects/${id}`, { headers: { 'PRIVATE-TOKEN': issued.secret } })
      expect((await read(7)).status).toBe(200)
      expect((await read(8)).status).toBe(403)
      await expect(
        gitlab.issueToken({
          userId: 2,
          name: 'x',
          permissions: [{ permissions: ['read_invoice'], boundary: 'user' }],
        }),
      ).rejects.toThrow(/unknown read_invoice/)
    } finally {
      await gitlab.close()
    }
  })
})
