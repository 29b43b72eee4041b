import { describe, expect, it } from 'vitest'
import { manualClock } from '../../src/domain/clock.js'
import { seededRandom } from '../../src/domain/random.js'
import type { Group, Project } from '../../src/domain/resource.js'
import { createHandler } from '../../src/http/index.js'
import { type AuthorityConfig, createAuthority } from '../../src/index.js'
import { memoryStore } from '../../src/memory/index.js'
import { ADMIN, ALICE, BOB, T0 } from '../support/authority-fixtures.js'

// GET /personal_access_tokens/self/associations: lib/api/personal_access_tokens/self_information.rb
// (gitlabhq 1908a23a), GroupsFinder and ProjectsFinder without `sort` (order_id_desc), the entities
// GroupAssociationDetails (id 71486904906) and ProjectAssociationDetails (id 632626420); each list
// paginated with the same page, the headers the projects list's (shared/reference/gitlab-19-entities.md §4).

const group = (
  id: number,
  path: string,
  parentId: number | null,
  visibility: Group['visibility'],
  members: Group['members'] = [],
): Group => ({
  id,
  path,
  fullPath: parentId === 3 ? `acme/${path}` : path,
  name: path.toUpperCase(),
  parentId,
  visibility,
  members,
})
const project = (
  id: number,
  path: string,
  groupId: number | null,
  prefix: string,
  visibility: Project['visibility'],
  members: Project['members'] = [],
): Project => ({
  id,
  path,
  fullPath: `${prefix}/${path}`,
  name: path,
  groupId,
  visibility,
  members,
})

async function world(options: Partial<Omit<AuthorityConfig, 'store' | 'pepper'>> = {}) {
  const store = memoryStore({ users: [ADMIN, ALICE, BOB] })
  const resources = store.resources
  if (resources === undefined) throw new Error('the memory store holds resources')
  const authority = createAuthority({
    store,
    pepper: 'p',
    clock: manualClock(T0),
    random: seededRandom(6),
    ...options,
  })
  for (const g of [
    group(3, 'acme', null, 'private', [{ userId: ALICE.id, accessLevel: 50 }]),
    group(4, 'sub', 3, 'private'),
    group(5, 'other', null, 'private', [{ userId: BOB.id, accessLevel: 50 }]),
    group(6, 'open', null, 'public'),
  ])
    (await resources.putGroup(g))._unsafeUnwrap()
  for (const p of [
    project(7, 'api', 3, 'acme', 'private'),
    project(8, 'x', 5, 'other', 'private', [{ userId: ALICE.id, accessLevel: 30 }]),
    project(9, 'p', 6, 'open', 'public'),
    project(10, 'mine', null, 'bob', 'private', [{ userId: BOB.id, accessLevel: 50 }]),
  ])
    (await resources.putProject(p))._unsafeUnwrap()
  const handler = createHandler(authority)
  const secret = async (userId: number, scopes = ['read_user']) =>
    (await authority.issueToken({ userId, name: 't', scopes, expiresAt: null }))._unsafeUnwrap().secret
  async function get(query: string, token: string) {
    const response = await handler(
      new Request(`http://gitlab.test/api/v4/personal_access_tokens/self/associations${query}`, {
        headers: { 'PRIVATE-TOKEN': token },
      }),
    )
    const json = (await response.json()) as {
      groups: Record<string, unknown>[]
      projects: Record<string, unknown>[]
    }
    return {
      status: response.status,
      headers: response.headers,
      json,
      ids: { groups: json.groups.map((g) => g['id']), projects: json.projects.map((p) => p['id']) },
    }
  }
  return { get, secret }
}

describe('GET /personal_access_tokens/self/associations', () => {
  it('every group and project the user may see, newest first, with their access levels', async () => {
    const w = await world()
    const r = await w.get('', await w.secret(ALICE.id))
    expect(r.status).toBe(200)
    // Groups: the public one, the member group and the subgroup below it; projects: the public one,
    // a direct membership, one through the group.
    expect(r.ids).toEqual({ groups: [6, 4, 3], projects: [9, 8, 7] })
    expect(r.json.groups[1]).toEqual({
      id: 4,
      web_url: 'http://gitlab.test/groups/acme/sub',
      name: 'SUB',
      parent_id: 3,
      organization_id: null,
      access_levels: 50,
      visibility: 'private',
    })
    expect(r.json.projects[1]).toMatchObject({
      id: 8,
      name_with_namespace: 'OTHER / x',
      path_with_namespace: 'other/x',
      access_levels: { project_access_level: 30, group_access_level: null },
      visibility: 'private',
      web_url: 'http://gitlab.test/other/x',
      namespace: { id: 5, kind: 'group', full_path: 'other' },
    })
    expect(r.json.projects[2]?.['access_levels']).toEqual({
      project_access_level: null,
      group_access_level: 50,
    })
    expect(Object.keys(r.json.projects[0] ?? {})).toEqual([
      'id',
      'description',
      'name',
      'name_with_namespace',
      'path',
      'path_with_namespace',
      'created_at',
      'access_levels',
      'visibility',
      'web_url',
      'namespace',
    ])
  })

  it('min_access_level: direct group memberships at that level and the groups below; projects reached at that level', async () => {
    const w = await world()
    const r = await w.get('?min_access_level=40', await w.secret(ALICE.id))
    expect(r.ids).toEqual({ groups: [4, 3], projects: [7] })
  })

  it('an administrator gets every group and project', async () => {
    const w = await world()
    const r = await w.get('', await w.secret(ADMIN.id))
    expect(r.ids).toEqual({ groups: [6, 5, 4, 3], projects: [10, 9, 8, 7] })
  })

  it("each list is paginated with the same page; the headers are the projects list's", async () => {
    const w = await world()
    const r = await w.get('?per_page=1&page=2', await w.secret(ALICE.id))
    expect(r.ids).toEqual({ groups: [4], projects: [8] })
    expect(r.headers.get('x-total')).toBe('3')
    expect(r.headers.get('x-page')).toBe('2')
    expect(r.headers.get('x-next-page')).toBe('3')
  })
})
