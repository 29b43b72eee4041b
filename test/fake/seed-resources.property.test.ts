import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { FakeAuthority } from '../../src/fake/fake-authority.js'
import type { Seed } from '../../src/fake/seed/seed-schema.js'
import { control, fakeOver, snapshotOf } from './support/data-fake.js'

// Whatever groups and projects a restore (or an add over stored ones) is given (parents anywhere in
// the list, unknown, cyclic; paths that clash in some case), it either refuses them and the data stays
// as it was, or every group and project stored has the full path its chain of parents gives, and no
// two of a kind share one.

// Parents mostly among the ids listed (in any order, so cycles too), now and then an unknown one.
const reference = (ids: readonly number[]) =>
  fc.oneof(
    { arbitrary: fc.constant(null), weight: 2 },
    { arbitrary: ids.length === 0 ? fc.constant(null) : fc.constantFrom(...ids), weight: 3 },
    { arbitrary: fc.constant(7), weight: 1 },
  )

const groupsAndProjects = fc
  .record({
    groupIds: fc.uniqueArray(fc.integer({ min: 1, max: 6 }), { maxLength: 6 }),
    projectIds: fc.uniqueArray(fc.integer({ min: 1, max: 4 }), { maxLength: 4 }),
  })
  .chain(({ groupIds, projectIds }) =>
    fc.record({
      groups: fc.tuple(
        ...groupIds.map((id) =>
          fc.record({
            id: fc.constant(id),
            path: fc.constantFrom('ga', 'gb', 'gc', 'gd', 'GA'),
            name: fc.constant('G'),
            parent_id: reference(groupIds),
          }),
        ),
      ),
      projects: fc.tuple(
        ...projectIds.map((id) =>
          fc.record({
            id: fc.constant(id),
            path: fc.constantFrom('x', 'y', 'z', 'X'),
            name: fc.constant('P'),
            group_id: reference(groupIds),
          }),
        ),
      ),
    }),
  )

function expectedPath(groups: Map<number, { path: string; parentId: number | null }>, id: number): string {
  const parts: string[] = []
  for (let at: number | null = id; at !== null; at = groups.get(at)?.parentId ?? null) {
    parts.unshift(groups.get(at)?.path ?? '?')
  }
  return parts.join('/')
}

async function expectConsistent(fake: FakeAuthority, world?: { groups: unknown[]; projects: unknown[] }) {
  const resources = fake.store.resources
  if (resources === undefined) throw new Error('the memory store holds resources')
  const groups = (await resources.listGroups())._unsafeUnwrap()
  const projects = (await resources.listProjects())._unsafeUnwrap()
  if (world !== undefined) expect(groups).toHaveLength(world.groups.length)
  if (world !== undefined) expect(projects).toHaveLength(world.projects.length)
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
}

describe('a restore, or an add, of any groups and projects', { timeout: 60_000 }, () => {
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
        await expectConsistent(fake, world)
      }),
      { numRuns: 150 },
    )
  })

  it('an add over stored ones is refused leaving the data as it was, or leaves every full path right', async () => {
    await fc.assert(
      fc.asyncProperty(groupsAndProjects, groupsAndProjects, async (first, second) => {
        const fake = await fakeOver()
        const users = [{ id: 1, username: 'root', admin: true }]
        if ((await control(fake, 'PUT', '/state', { users, ...first })).status !== 200) return
        const before = await snapshotOf(fake)
        const added = await fake.state.add(second)
        if (added.isErr()) {
          expect(await snapshotOf(fake)).toEqual(before)
          return
        }
        await expectConsistent(fake)
      }),
      { numRuns: 150 },
    )
  })
})
