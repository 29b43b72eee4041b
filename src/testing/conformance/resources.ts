import { expect } from 'vitest'
import type { Group, Member, Project } from '../../domain/resource.js'
import { userFixture } from '../fixtures.js'
import type { ConformanceContext } from './context.js'
import { errValue, okValue } from './results.js'

/** A group with the defaults the tests leave alone. */
export function groupFixture(id: number, overrides: Partial<Group> = {}): Group {
  const path = overrides.path ?? `group-${id}`
  return {
    id,
    path,
    fullPath: path,
    name: `Group ${id}`,
    parentId: null,
    visibility: 'private',
    members: [],
    ...overrides,
  }
}

/** A project with the defaults the tests leave alone. */
export function projectFixture(id: number, overrides: Partial<Project> = {}): Project {
  const path = overrides.path ?? `project-${id}`
  return {
    id,
    path,
    fullPath: path,
    name: `Project ${id}`,
    groupId: null,
    visibility: 'private',
    members: [],
    ...overrides,
  }
}

/** A resource with its members in user id order: stores may keep members in any order. */
export function membersSorted<T extends { readonly members: readonly Member[] } | null>(resource: T): T {
  if (resource === null) return resource
  return { ...resource, members: [...resource.members].sort((a, b) => a.userId - b.userId) }
}

/**
 * Conformance tests of the optional `resources` capability's projects, groups and members: lookups by
 * id and by full path in any case, `put` replacing a resource and its members, full paths unique per
 * kind, `setMember` adding or changing one member, `removeMember` removing one.
 */
export function describeResources(ctx: ConformanceContext): void {
  ctx.group('resources: projects, groups and members (optional)', () => {
    ctx.testOptional(
      'resources',
      'findGroup finds a group by id, by an id of digits and by full path in any case',
      async (store) => {
        const group = groupFixture(3, {
          path: 'Platform',
          fullPath: 'Acme/Platform',
          parentId: 1,
          visibility: 'internal',
          members: [{ userId: 2, accessLevel: 50 }],
        })
        expect(membersSorted(await okValue(store.resources.putGroup(group)))).toEqual(group)
        for (const ref of [3, '3', 'Acme/Platform', 'acme/platform', 'ACME/PLATFORM']) {
          expect(membersSorted(await okValue(store.resources.findGroup(ref))), String(ref)).toEqual(group)
        }
      },
    )

    ctx.testOptional(
      'resources',
      'findProject finds a project by id, by an id of digits and by full path in any case',
      async (store) => {
        const project = projectFixture(7, {
          path: 'API',
          fullPath: 'acme/API',
          groupId: 1,
          visibility: 'public',
          members: [
            { userId: 2, accessLevel: 40 },
            { userId: 5, accessLevel: 30 },
          ],
        })
        expect(membersSorted(await okValue(store.resources.putProject(project)))).toEqual(project)
        for (const ref of [7, '7', 'acme/API', 'acme/api', 'ACME/API']) {
          expect(membersSorted(await okValue(store.resources.findProject(ref))), String(ref)).toEqual(project)
        }
      },
    )

    ctx.testOptional(
      'resources',
      'findGroup and findProject return null for an unknown id or path; groups and projects are apart',
      async (store) => {
        await okValue(store.resources.putGroup(groupFixture(1, { path: 'acme' })))
        await okValue(store.resources.putProject(projectFixture(2, { path: 'api' })))
        for (const ref of [2, '2', 'api', 'acm', 'acme/api']) {
          expect(await okValue(store.resources.findGroup(ref)), String(ref)).toBeNull()
        }
        for (const ref of [1, '1', 'acme', 'ap']) {
          expect(await okValue(store.resources.findProject(ref)), String(ref)).toBeNull()
        }
      },
    )

    ctx.testOptional(
      'resources',
      'putGroup and putProject replace the resource with the same id, members included',
      async (store) => {
        const { resources } = store
        await okValue(
          resources.putGroup(
            groupFixture(1, {
              path: 'old',
              members: [
                { userId: 2, accessLevel: 50 },
                { userId: 3, accessLevel: 30 },
              ],
            }),
          ),
        )
        const renamed = groupFixture(1, {
          path: 'new',
          name: 'New',
          members: [{ userId: 4, accessLevel: 10 }],
        })
        await okValue(resources.putGroup(renamed))
        expect(membersSorted(await okValue(resources.findGroup(1)))).toEqual(renamed)
        expect(await okValue(resources.findGroup('old')), 'the old full path').toBeNull()
        expect(membersSorted(await okValue(resources.findGroup('NEW')))).toEqual(renamed)

        await okValue(resources.putProject(projectFixture(9, { members: [{ userId: 2, accessLevel: 40 }] })))
        const emptied = projectFixture(9, { visibility: 'public', members: [] })
        await okValue(resources.putProject(emptied))
        expect(await okValue(resources.findProject(9))).toEqual(emptied)
      },
    )

    ctx.testOptional(
      'resources',
      'putGroup and putProject refuse a full path another resource of the kind holds, in any case',
      async (store) => {
        const { resources } = store
        await okValue(resources.putGroup(groupFixture(1, { path: 'acme' })))
        await okValue(resources.putProject(projectFixture(1, { path: 'acme-api', fullPath: 'acme/api' })))
        await errValue(resources.putGroup(groupFixture(2, { path: 'ACME' })))
        await errValue(resources.putProject(projectFixture(2, { path: 'API', fullPath: 'Acme/API' })))
        // The first holders are untouched, nothing of the refused ones stored.
        expect((await okValue(resources.findGroup('acme')))?.id).toBe(1)
        expect(await okValue(resources.findGroup(2))).toBeNull()
        expect((await okValue(resources.findProject('acme/api')))?.id).toBe(1)
        expect(await okValue(resources.findProject(2))).toBeNull()
        // Full paths are unique per kind: a project may have a group's.
        expect((await okValue(resources.putProject(projectFixture(3, { path: 'acme' })))).id).toBe(3)
        // A refused replacement leaves the resource as it was, members included.
        const kept = projectFixture(5, { path: 'kept', members: [{ userId: 2, accessLevel: 40 }] })
        await okValue(resources.putProject(kept))
        await errValue(
          resources.putProject(projectFixture(5, { path: 'ACME', fullPath: 'ACME/api', members: [] })),
        )
        expect(membersSorted(await okValue(resources.findProject(5)))).toEqual(kept)
        // The holder itself may keep or re-case its path.
        await okValue(resources.putGroup(groupFixture(1, { path: 'Acme' })))
        expect((await okValue(resources.findGroup('acme')))?.fullPath).toBe('Acme')
      },
    )

    ctx.testOptional(
      'resources',
      'listGroups and listProjects return every resource in id order with its members',
      async (store) => {
        const { resources } = store
        const groups = [
          groupFixture(5, { members: [{ userId: 1, accessLevel: 50 }] }),
          groupFixture(2),
          groupFixture(9, { parentId: 5, members: [{ userId: 3, accessLevel: 20 }] }),
        ]
        const projects = [
          projectFixture(4, { groupId: 5, members: [{ userId: 3, accessLevel: 40 }] }),
          projectFixture(1, {
            members: [
              { userId: 8, accessLevel: 30 },
              { userId: 1, accessLevel: 10 },
            ],
          }),
        ]
        for (const group of groups) await okValue(resources.putGroup(group))
        for (const project of projects) await okValue(resources.putProject(project))
        const byId = <T extends { id: number }>(list: readonly T[]) => [...list].sort((a, b) => a.id - b.id)
        expect((await okValue(resources.listGroups())).map(membersSorted)).toEqual(
          byId(groups).map(membersSorted),
        )
        expect((await okValue(resources.listProjects())).map(membersSorted)).toEqual(
          byId(projects).map(membersSorted),
        )
      },
    )

    ctx.testOptional(
      'resources',
      'setMember adds a member or changes its level, leaving the other members',
      async (store) => {
        const { resources } = store
        await okValue(resources.putProject(projectFixture(7, { members: [{ userId: 2, accessLevel: 40 }] })))
        await okValue(resources.setMember({ type: 'project', id: 7 }, { userId: 3, accessLevel: 30 }))
        await okValue(resources.setMember({ type: 'project', id: 7 }, { userId: 2, accessLevel: 50 }))
        expect(membersSorted(await okValue(resources.findProject(7)))?.members).toEqual([
          { userId: 2, accessLevel: 50 },
          { userId: 3, accessLevel: 30 },
        ])
        await okValue(resources.putGroup(groupFixture(7)))
        await okValue(resources.setMember({ type: 'group', id: 7 }, { userId: 9, accessLevel: 10 }))
        expect((await okValue(resources.findGroup(7)))?.members).toEqual([{ userId: 9, accessLevel: 10 }])
        // The project of the same id is another resource.
        expect(membersSorted(await okValue(resources.findProject(7)))?.members).toHaveLength(2)
      },
    )

    ctx.testOptional('resources', 'setMember on a missing group or project fails', async (store) => {
      const { resources } = store
      await okValue(resources.putGroup(groupFixture(1)))
      await errValue(resources.setMember({ type: 'project', id: 1 }, { userId: 2, accessLevel: 30 }))
      await errValue(resources.setMember({ type: 'group', id: 2 }, { userId: 2, accessLevel: 30 }))
      expect(await okValue(resources.findProject(1))).toBeNull()
      expect((await okValue(resources.findGroup(1)))?.members).toEqual([])
    })

    ctx.testOptional(
      'resources',
      'removeMember removes one member and leaves the others; an absent one changes nothing',
      async (store) => {
        const { resources } = store
        const members = [
          { userId: 2, accessLevel: 40 },
          { userId: 3, accessLevel: 30 },
        ] as const
        await okValue(resources.putProject(projectFixture(7, { members: [...members] })))
        await okValue(resources.putGroup(groupFixture(7, { members: [...members] })))
        await okValue(resources.removeMember({ type: 'project', id: 7 }, 2))
        expect((await okValue(resources.findProject(7)))?.members).toEqual([{ userId: 3, accessLevel: 30 }])
        // The group of the same id is another resource.
        expect(membersSorted(await okValue(resources.findGroup(7)))?.members).toEqual(members)
        await okValue(resources.removeMember({ type: 'project', id: 7 }, 2))
        await okValue(resources.removeMember({ type: 'project', id: 8 }, 3))
        expect((await okValue(resources.findProject(7)))?.members).toEqual([{ userId: 3, accessLevel: 30 }])
        expect(await okValue(resources.findProject(8))).toBeNull()
      },
    )

    ctx.testOptional(
      'resources',
      'concurrent setMember and removeMember calls on one resource each change only their member',
      async (store) => {
        const { resources } = store
        const leaving = Array.from({ length: 8 }, (_, k) => k + 1)
        const joining = Array.from({ length: 8 }, (_, k) => k + 11)
        for (const id of [...leaving, ...joining]) await okValue(store.putUser(userFixture(id)))
        await okValue(
          resources.putGroup(
            groupFixture(1, { members: leaving.map((userId) => ({ userId, accessLevel: 30 })) }),
          ),
        )
        await Promise.all([
          ...joining.map((userId) =>
            okValue(resources.setMember({ type: 'group', id: 1 }, { userId, accessLevel: 20 })),
          ),
          ...leaving.map((userId) => okValue(resources.removeMember({ type: 'group', id: 1 }, userId))),
        ])
        expect(membersSorted(await okValue(resources.findGroup(1)))?.members).toEqual(
          joining.map((userId) => ({ userId, accessLevel: 20 })),
        )
      },
    )

    ctx.testOptional('resources', 'concurrent setMember calls on one resource all persist', async (store) => {
      const { resources } = store
      await okValue(resources.putGroup(groupFixture(1)))
      const users = Array.from({ length: 12 }, (_, k) => k + 1)
      for (const id of users) await okValue(store.putUser(userFixture(id)))
      await Promise.all(
        users.map((id) =>
          okValue(resources.setMember({ type: 'group', id: 1 }, { userId: id, accessLevel: 30 })),
        ),
      )
      expect(membersSorted(await okValue(resources.findGroup(1)))?.members).toEqual(
        users.map((userId) => ({ userId, accessLevel: 30 })),
      )
    })
  })
}
