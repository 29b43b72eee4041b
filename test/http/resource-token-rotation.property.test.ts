import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { ResourceType } from '../../src/domain/resource.js'
import { resourceWorld } from '../e2e/gitlab-specs/resource-world.js'
import { daysFromToday } from '../e2e/gitlab-specs/world.js'

// A resource token's family over any mix of its two rotation paths (`self/rotate` by the bot,
// `:token_id/rotate` by an Owner): each successor names its predecessor, keeps the bot, name, scopes
// and role; and any revoked member presented to either path (whatever `:token_id` it names) is reuse:
// 401, and the family's active token is revoked (resource-access-tokens.md §3, "Reuse detection").

type Path = 'self' | 'by_id'

interface Shown {
  readonly id: number
  readonly token: string
  readonly user_id: number
  readonly name: string
  readonly scopes: string[]
  readonly access_level: number
  readonly resource_type: string
  readonly resource_id: number
  readonly active: boolean
}

async function family(
  type: ResourceType,
  rotations: readonly Path[],
  presented: number,
  at: Path,
  named: 'own' | 'latest',
) {
  const w = await resourceWorld()
  const top = await w.group()
  const id = type === 'project' ? (await w.project(top.id)).id : top.id
  const owner = await w.human('Olivia')
  await w.member(type, id, owner, 50)
  const ownerToken = await w.token({ user: owner, scopes: ['api'], expiresAt: daysFromToday(60) })
  const base = `/${type}s/${id}/access_tokens`
  const created = await w.send('POST', base, ownerToken.secret, {
    name: 'Deploy bot',
    scopes: ['api', 'read_repository'],
    expires_at: daysFromToday(30),
    access_level: 30,
  })
  expect(created.status).toBe(201)
  const chain: Shown[] = [created.json as Shown]

  for (const path of rotations) {
    const last = chain[chain.length - 1] as Shown
    const r =
      path === 'self'
        ? await w.send('POST', `${base}/self/rotate`, last.token)
        : await w.send('POST', `${base}/${last.id}/rotate`, ownerToken.secret)
    expect(r.status).toBe(200)
    const next = r.json as Shown
    expect(next).toMatchObject({
      user_id: last.user_id,
      name: 'Deploy bot',
      scopes: ['api', 'read_repository'],
      access_level: 30,
      resource_type: type,
      resource_id: id,
      active: true,
    })
    // The entity shows no `previous_id`: the store holds the family.
    const stored = (await w.gitlab.store.findById(next.id))._unsafeUnwrap()
    const first = (await w.gitlab.store.findById(chain[0]?.id ?? 0))._unsafeUnwrap()
    expect(stored).toMatchObject({ previousId: last.id, familyId: first?.familyId })
    expect((await w.reload(last.id)).revoked).toBe(true)
    chain.push(next)
  }

  // Any revoked member of the family, presented to either path.
  const reused = chain[presented % (chain.length - 1)] as Shown
  const latest = chain[chain.length - 1] as Shown
  const target = named === 'own' ? reused.id : latest.id
  const r = await w.send(
    'POST',
    at === 'self' ? `${base}/self/rotate` : `${base}/${target}/rotate`,
    reused.token,
  )
  expect(r.status).toBe(401)
  for (const member of chain) expect((await w.reload(member.id)).revoked).toBe(true)
  const active = await w.send('GET', base, ownerToken.secret, { state: 'active' })
  expect(active.json).toEqual([])
  expect((await w.send('GET', '/personal_access_tokens/self', latest.token)).status).toBe(401)
}

const path = fc.constantFrom<Path>('self', 'by_id')

for (const type of ['project', 'group'] as const) {
  describe(`${type} access token rotation`, () => {
    it('keeps the family over both paths; a revoked member at either path revokes its successor', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(path, { minLength: 1, maxLength: 4 }),
          fc.nat(),
          path,
          fc.constantFrom<'own' | 'latest'>('own', 'latest'),
          (rotations, presented, at, named) => family(type, rotations, presented, at, named),
        ),
        { numRuns: 12 },
      )
      // 12 worlds of HTTP rotations each: 3 s alone, several times that on a busy machine.
    }, 30_000)

    for (const at of ['self', 'by_id'] as const) {
      it(`the direct predecessor presented to ${at === 'self' ? 'self/rotate' : ':token_id/rotate'} revokes the successor`, async () => {
        await family(type, ['by_id'], 0, at, 'own')
        await family(type, ['self'], 0, at, 'latest')
      })
    }
  })
}
