import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Seed } from '../../src/fake/seed/seed-schema.js'
import { control, fakeOver, snapshotOf } from './support/data-fake.js'

// Whatever groups and projects a restore is given (parents anywhere in the list, unknown, cyclic; paths
// that clash in some case), it either refuses them and the data stays as it was, or every group and
// project it stored has the full path its chain of parents gives, and no two of a kind share one.

const groupsAndProjects = fc.record({
  groups: fc.uniqueArray(
    fc.record({
      id: fc.integer({ min: 1, max: 6 }),
      path: fc.constantFrom('a', 'A', 'b', 'c'),
      name: fc.constant('G'),
      parent_id: fc.option(fc.integer({ min: 1, max: 7 })),
    }),
    { selector: (g) => g.id, maxLength: 6 },
  ),
  projects: fc.uniqueArray(
    fc.record({
      id: fc.integer({ min: 1, max: 4 }),
      path: fc.constantFrom('x', 'X', 'y'),
      name: fc.constant('P'),
      group_id: fc.option(fc.integer({ min: 1, max: 7 })),
    }),
    { selector: (p) => p.id, maxLength: 4 },
  ),
})

function expectedPath(groups: Map<number, { path: string; parentId: number | null }>, id: number): string {
  const parts: string[] = []
  for (let at: number | null = id; at !== null; at = groups.get(at)?.parentId ?? null) {
    parts.unshift(groups.get(at)?.path ?? '?')
  }
  return parts.join('/')
}

describe('a restore of any groups and projects', { timeout: 60_000 }, () => {
  it('is refused leaving the data as it was, or stores the full paths the parents give', async () => {
    await fc.assert(
      fc.asyncProperty(groupsAndProjects, async (world) => {
        const fake = await fakeOver()
        const before = await snapshotOf(fake)
        const seed: Seed = { users: [{ id: 1, username: 'root', admin: true }], ...world }
        const restored = await control(fake, 'PUT', '/state', seed)
        if (restored.status !== 200) {
          expect(restored.status).toBe(400)
          expect(await snapshotOf(fake)).toEqual(before)
          return
        }
        const resources = fake.store.resources
        if (resources === undefined) throw new Error('the memory store holds resources')
        const groups = (await resources.listGroups())._unsafeUnwrap()
        const projects = (await resources.listProjects())._unsafeUnwrap()
        expect(groups).toHaveLength(world.groups.length)
        expect(projects).toHaveLength(world.projects.length)
        const byId = new Map(groups.map((g) => [g.id, { path: g.path, parentId: g.parentId }]))
        for (const group of groups) expect(group.fullPath).toBe(expectedPath(byId, group.id))
        for (const project of projects) {
          const above = project.groupId === null ? null : expectedPath(byId, project.groupId)
          expect(project.fullPath).toBe(above === null ? project.path : `${above}/${project.path}`)
        }
        for (const list of [groups, projects]) {
          const paths = list.map((r) => r.fullPath.toLowerCase())
          expect(new Set(paths).size).toBe(paths.length)
        }
      }),
      { numRuns: 150 },
    )
  })
})
