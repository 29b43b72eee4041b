import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { Seed } from '../../src/fake/seed/seed-schema.js'
import { control, fakeOver, snapshotOf } from './support/data-fake.js'

// Whatever groups, projects, members, bots and service accounts a restore is given, a snapshot of the
// data restores to the very same data: snapshot → restore → snapshot is the identity.

const LEVELS = [10, 15, 20, 30, 40, 50] as const
const VISIBILITY = ['private', 'internal', 'public'] as const

const member = (users: readonly number[]) =>
  fc.uniqueArray(
    fc.record({ user_id: fc.constantFrom(...users), access_level: fc.constantFrom(...LEVELS) }),
    { selector: (m) => m.user_id, maxLength: 3 },
  )

const world: fc.Arbitrary<Seed> = fc
  .record({
    groupCount: fc.integer({ min: 1, max: 5 }),
    projectCount: fc.integer({ min: 0, max: 4 }),
    humans: fc.integer({ min: 1, max: 3 }),
  })
  .chain(({ groupCount, projectCount, humans }) => {
    const humanIds = Array.from({ length: humans }, (_, i) => i + 1)
    const groupIds = Array.from({ length: groupCount }, (_, i) => i + 1)
    const projectIds = Array.from({ length: projectCount }, (_, i) => i + 1)
    const groups = fc.tuple(
      ...groupIds.map((id, index) =>
        fc.record({
          id: fc.constant(id),
          path: fc.constant(`g${id}`),
          name: fc.constant(`Group ${id}`),
          // A parent among the groups before it: no cycle.
          parent_id:
            index === 0 ? fc.constant(null) : fc.option(fc.constantFrom(...groupIds.slice(0, index))),
          visibility: fc.constantFrom(...VISIBILITY),
          members: member(humanIds),
        }),
      ),
    )
    const projects = fc.tuple(
      ...projectIds.map((id) =>
        fc.record({
          id: fc.constant(id),
          path: fc.constant(`p${id}`),
          name: fc.constant(`Project ${id}`),
          group_id: fc.option(fc.constantFrom(...groupIds)),
          visibility: fc.constantFrom(...VISIBILITY),
          members: member(humanIds),
        }),
      ),
    )
    return fc
      .tuple(groups, projects, fc.shuffledSubarray(projectIds), fc.boolean())
      .map(([g, p, botProjects, serviceAccount]): Seed => {
        // One bot per chosen project, a Maintainer there, with one token.
        const bots = botProjects.map((projectId, i) => ({
          id: 100 + i,
          username: `project_${projectId}_bot_${i}`,
          name: `bot ${i}`,
          bot: true,
          bot_namespace: { type: 'project' as const, id: projectId },
        }))
        const topLevel = g.filter((group) => group.parent_id === null)
        const accounts = serviceAccount
          ? [
              {
                id: 200,
                username: 'service_account_1',
                service_account: true,
                provisioned_by_group_id: topLevel[0]?.id ?? 1,
              },
            ]
          : []
        return {
          users: [
            ...humanIds.map((id) => ({ id, username: `user${id}`, admin: id === 1 })),
            ...bots,
            ...accounts,
          ],
          // Listed in reverse: a subgroup before its parent.
          groups: [...g].reverse(),
          projects: p.map((project) => ({
            ...project,
            members: [
              ...project.members,
              ...bots
                .filter((bot) => bot.bot_namespace.id === project.id)
                .map((bot) => ({ user_id: bot.id, access_level: 40 as const })),
            ],
          })),
          tokens: bots.map((bot, i) => ({
            user_id: bot.id,
            name: 'deploy',
            scopes: ['api' as const],
            token: `glpat-property-bot-secret-${i}`,
            expires_at: '2027-01-01',
          })),
        }
      })
  })

describe('snapshot and restore carry groups, projects, members, bots and service accounts', {
  timeout: 60_000,
}, () => {
  it('snapshot → restore → snapshot is the same snapshot', async () => {
    await fc.assert(
      fc.asyncProperty(world, async (seed) => {
        const fake = await fakeOver()
        const restored = await control(fake, 'PUT', '/state', seed)
        expect(restored.status).toBe(200)
        const first = await snapshotOf(fake)
        expect(first.groups).toHaveLength(seed.groups?.length ?? 0)
        expect(first.projects).toHaveLength(seed.projects?.length ?? 0)
        expect((await control(fake, 'PUT', '/state', first)).status).toBe(200)
        expect(await snapshotOf(fake)).toEqual(first)
      }),
      { numRuns: 60 },
    )
  })
})
