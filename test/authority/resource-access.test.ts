import { describe, expect, it } from 'vitest'
import { groupInView, projectInView, viewerOf } from '../../src/authority/core/resource-access.js'
import { resolveAuthorityDeps } from '../../src/authority/create-authority.js'
import { manualClock } from '../../src/domain/clock.js'
import { fullPathOf, type Group, type Project, type Visibility } from '../../src/domain/resource.js'
import { memoryStore } from '../../src/memory/index.js'
import type { TokenStore } from '../../src/store/index.js'
import type { User } from '../../src/store/user.js'
import { T0 } from '../support/authority-fixtures.js'

// GitLab's find_project!/find_group!: a resource is found by id or by full path in any case, and one
// the caller may not read is reported as missing; the caller's access is the highest of their
// memberships in the resource and every group above it.

const ROOT = { id: 1, username: 'root', admin: true, blocked: false } satisfies User
const OWNER = { id: 2, username: 'owner', admin: false, blocked: false } satisfies User
const DEV = { id: 3, username: 'dev', admin: false, blocked: false } satisfies User
const STRANGER = { id: 4, username: 'stranger', admin: false, blocked: false } satisfies User

async function world(visibility: Visibility = 'private') {
  const store = memoryStore({ users: [ROOT, OWNER, DEV, STRANGER] })
  const resources = store.resources
  if (resources === undefined) throw new Error('the memory store holds resources')
  const top: Group = {
    id: 1,
    path: 'acme',
    fullPath: 'acme',
    name: 'Acme',
    parentId: null,
    visibility,
    members: [{ userId: OWNER.id, accessLevel: 50 }],
  }
  const sub: Group = {
    id: 2,
    path: 'Platform',
    fullPath: fullPathOf('acme', 'Platform'),
    name: 'Platform',
    parentId: 1,
    visibility,
    members: [{ userId: DEV.id, accessLevel: 20 }],
  }
  const project: Project = {
    id: 7,
    path: 'api',
    fullPath: fullPathOf(sub.fullPath, 'api'),
    name: 'API',
    groupId: 2,
    visibility,
    members: [{ userId: DEV.id, accessLevel: 30 }],
  }
  for (const put of [
    await resources.putGroup(top),
    await resources.putGroup(sub),
    await resources.putProject(project),
  ]) {
    expect(put.isOk()).toBe(true)
  }
  return resolveAuthorityDeps({ store, pepper: 'test-pepper', clock: manualClock(T0) })
}

describe('projectInView and groupInView', () => {
  it('find a project by id or by full path in any case, with the chain of groups above it', async () => {
    const deps = await world()
    for (const ref of ['7', 'acme/platform/API']) {
      const found = (await projectInView(deps, DEV, ref))._unsafeUnwrap()
      expect(found.resource.id).toBe(7)
      expect(found.chain.map((resource) => resource.id)).toEqual([7, 2, 1])
      expect(found.root?.id).toBe(1)
    }
  })

  it("give the caller's highest access over the resource and every group above it", async () => {
    const deps = await world()
    expect((await projectInView(deps, DEV, '7'))._unsafeUnwrap().access).toBe(30)
    expect((await projectInView(deps, OWNER, '7'))._unsafeUnwrap().access).toBe(50)
    expect((await groupInView(deps, DEV, 'acme/platform'))._unsafeUnwrap().access).toBe(20)
    expect((await groupInView(deps, ROOT, '1'))._unsafeUnwrap().access).toBeNull()
  })

  it('report a private resource as missing to a non-member, but not to an administrator', async () => {
    const deps = await world('private')
    expect((await projectInView(deps, STRANGER, '7'))._unsafeUnwrapErr()).toEqual({
      type: 'not_found',
      entity: 'project',
    })
    expect((await groupInView(deps, null, '1'))._unsafeUnwrapErr()).toEqual({
      type: 'not_found',
      entity: 'group',
    })
    expect((await projectInView(deps, ROOT, '7')).isOk()).toBe(true)
  })

  it('show an internal resource to any signed-in user and a public one to anyone', async () => {
    const internal = await world('internal')
    expect((await projectInView(internal, STRANGER, '7'))._unsafeUnwrap().access).toBeNull()
    expect((await projectInView(internal, null, '7')).isErr()).toBe(true)
    const open = await world('public')
    expect((await groupInView(open, null, 'acme')).isOk()).toBe(true)
  })

  it('report unknown ids and paths, and a store without resources, as missing', async () => {
    const deps = await world()
    expect((await projectInView(deps, ROOT, '70'))._unsafeUnwrapErr()).toEqual({
      type: 'not_found',
      entity: 'project',
    })
    expect((await groupInView(deps, ROOT, 'acme/api'))._unsafeUnwrapErr()).toEqual({
      type: 'not_found',
      entity: 'group',
    })
    const { resources: _, ...bare }: TokenStore = memoryStore()
    const without = resolveAuthorityDeps({ store: bare, pepper: 'test-pepper', clock: manualClock(T0) })
    expect((await projectInView(without, ROOT, '7'))._unsafeUnwrapErr()).toEqual({
      type: 'not_found',
      entity: 'project',
    })
  })

  it("see a private resource as a session's administrator does not: a session never acts as one", async () => {
    const deps = await world('private')
    const viewer = viewerOf({ kind: 'session', user: ROOT, token: null })
    expect(viewer).toEqual({ ...ROOT, admin: false })
    expect((await projectInView(deps, viewer, '7'))._unsafeUnwrapErr()).toEqual({
      type: 'not_found',
      entity: 'project',
    })
  })
})
