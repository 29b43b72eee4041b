import { describe, expect, it } from 'vitest'
import { manualClock } from '../../src/domain/clock.js'
import { seededRandom } from '../../src/domain/random.js'
import type { Visibility } from '../../src/domain/resource.js'
import { createHandler } from '../../src/http/index.js'
import { createAuthority } from '../../src/index.js'
import { memoryStore } from '../../src/memory/index.js'
import { ADMIN, ALICE, BOB, T0 } from '../support/authority-fixtures.js'

// GET /projects/:id and GET /groups/:id: GitLab's find_project!/find_group! (lib/api/helpers.rb; the
// visibility rules of shared/reference/gitlab-19-entities.md §5 and resource-access-tokens.md §1), the
// ProjectWithAccess and GroupDetail entities as far as patkit holds the data (BasicProjectDetails,
// gitlabhq cb81e07a; Group, 017a6c12).

async function world(visibility: Visibility) {
  const store = memoryStore({ users: [ADMIN, ALICE, BOB] })
  const resources = store.resources
  if (resources === undefined) throw new Error('the memory store holds resources')
  const authority = createAuthority({ store, pepper: 'p', clock: manualClock(T0), random: seededRandom(2) })
  ;(
    await resources.putGroup({
      id: 3,
      path: 'acme',
      fullPath: 'acme',
      name: 'Acme',
      parentId: null,
      visibility,
      members: [{ userId: ALICE.id, accessLevel: 30 }],
    })
  )._unsafeUnwrap()
  ;(
    await resources.putProject({
      id: 7,
      path: 'api',
      fullPath: 'acme/api',
      name: 'API',
      groupId: 3,
      visibility,
      members: [{ userId: ALICE.id, accessLevel: 40 }],
    })
  )._unsafeUnwrap()
  const handler = createHandler(authority)
  const secret = async (userId: number, scopes = ['read_api']) =>
    (await authority.issueToken({ userId, name: 't', scopes, expiresAt: null }))._unsafeUnwrap().secret
  async function get(path: string, token?: string) {
    const response = await handler(
      new Request(
        `http://gitlab.test/api/v4${path}`,
        token === undefined ? {} : { headers: { 'PRIVATE-TOKEN': token } },
      ),
    )
    const text = await response.text()
    return { status: response.status, text, json: JSON.parse(text) as Record<string, unknown> }
  }
  return { get, secret }
}

describe('GET /projects/:id', () => {
  it("a member gets the project by id or URL-encoded full path, with GitLab's fields and permissions", async () => {
    const w = await world('private')
    const alice = await w.secret(ALICE.id)
    for (const ref of ['7', 'acme%2Fapi', 'ACME%2FAPI']) {
      const r = await w.get(`/projects/${ref}`, alice)
      expect(r.status, ref).toBe(200)
      expect(r.json).toMatchObject({
        id: 7,
        name: 'API',
        name_with_namespace: 'Acme / API',
        path: 'api',
        path_with_namespace: 'acme/api',
        web_url: 'http://gitlab.test/acme/api',
        http_url_to_repo: 'http://gitlab.test/acme/api.git',
        ssh_url_to_repo: 'git@gitlab.test:acme/api.git',
        visibility: 'private',
        namespace: { id: 3, name: 'Acme', path: 'acme', kind: 'group', full_path: 'acme', parent_id: null },
        // ProjectWithAccess: the direct membership and the highest group membership above it.
        permissions: {
          project_access: { access_level: 40, notification_level: 3 },
          group_access: { access_level: 30, notification_level: 3 },
        },
      })
      expect(Object.keys(r.json).slice(0, 7)).toEqual([
        'id',
        'description',
        'name',
        'name_with_namespace',
        'path',
        'path_with_namespace',
        'created_at',
      ])
    }
  })

  it('a private project is 404 Project Not Found for a non-member and an anonymous caller; an admin sees it', async () => {
    const w = await world('private')
    for (const token of [await w.secret(BOB.id), undefined]) {
      expect(await w.get('/projects/7', token)).toMatchObject({
        status: 404,
        text: '{"message":"404 Project Not Found"}',
      })
    }
    const admin = await w.get('/projects/acme%2Fapi', await w.secret(ADMIN.id))
    expect(admin.status).toBe(200)
    expect(admin.json['permissions']).toEqual({ project_access: null, group_access: null })
    expect((await w.get('/projects/99', await w.secret(ADMIN.id))).text).toBe(
      '{"message":"404 Project Not Found"}',
    )
  })

  it('internal: any signed-in user, not an anonymous one; public: anyone', async () => {
    const internal = await world('internal')
    expect((await internal.get('/projects/7', await internal.secret(BOB.id))).status).toBe(200)
    expect((await internal.get('/projects/7')).status).toBe(404)
    const open = await world('public')
    expect((await open.get('/projects/7')).status).toBe(200)
    expect((await open.get('/groups/3')).status).toBe(200)
  })

  it('a token without api or read_api is 403 insufficient_scope', async () => {
    const w = await world('public')
    const r = await w.get('/projects/7', await w.secret(ALICE.id, ['read_repository']))
    expect(r.status).toBe(403)
    expect(r.json['error']).toBe('insufficient_scope')
  })
})

describe('GET /groups/:id', () => {
  it('a member gets the group by id or full path; others 404 Group Not Found', async () => {
    const w = await world('private')
    const alice = await w.secret(ALICE.id)
    for (const ref of ['3', 'acme']) {
      const r = await w.get(`/groups/${ref}`, alice)
      expect(r.status).toBe(200)
      expect(r.json).toMatchObject({
        id: 3,
        web_url: 'http://gitlab.test/groups/acme',
        name: 'Acme',
        path: 'acme',
        visibility: 'private',
        full_name: 'Acme',
        full_path: 'acme',
        parent_id: null,
      })
    }
    expect(await w.get('/groups/3', await w.secret(BOB.id))).toMatchObject({
      status: 404,
      text: '{"message":"404 Group Not Found"}',
    })
    expect((await w.get('/groups/3')).status).toBe(404)
  })
})
