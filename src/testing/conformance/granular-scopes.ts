import { expect } from 'vitest'
import type { GranularScope } from '../../domain/granular-scope.js'
import type { Token } from '../../domain/token.js'
import { type ConformanceContext, query, seeder } from './context.js'
import { contract } from './contracts.js'
import { okValue } from './results.js'

const ROTATED_AT = new Date('2026-06-15T12:00:00.000Z')

const SCOPES: readonly GranularScope[] = [
  {
    access: 'user',
    permissions: ['read_personal_access_token', 'rotate_personal_access_token'],
    projectId: null,
    groupId: null,
  },
  { access: 'selected_memberships', permissions: ['read_project'], projectId: null, groupId: 7 },
  {
    access: 'selected_memberships',
    permissions: ['read_project', 'read_webhook'],
    projectId: 42,
    groupId: null,
  },
]

/**
 * Conformance tests of fine-grained tokens: `granularScopes` is kept exactly (order, permissions, ids)
 * by insert, importToken, rotate and replaceAll and by every read; absent on a legacy token.
 */
export function describeGranularScopes(ctx: ConformanceContext): void {
  ctx.group('granular scopes', () => {
    ctx.test('a granular token reads back with its scopes from every read', async (store) => {
      const seed = seeder(store)
      const token = await seed.insert({ name: 'fine', scopes: [], granularScopes: SCOPES })
      const legacy = await seed.insert({ name: 'legacy' })
      expect(token.granularScopes, `insert ${contract('exact-copy')}`).toEqual(SCOPES)
      expect(legacy, 'a legacy token has no granularScopes key').not.toHaveProperty('granularScopes')
      expect(await okValue(store.findById(token.id))).toEqual(token)
      expect(await okValue(store.findByDigest(token.digest))).toEqual(token)
      expect((await okValue(store.findByDigestWithUser(token.digest)))?.token).toEqual(token)
      const { items } = await okValue(store.list(query({ userId: token.userId })))
      expect(items).toEqual([token, legacy])
      expect(await okValue(store.findById(legacy.id))).not.toHaveProperty('granularScopes')
    })

    ctx.test('an empty list of granular scopes is kept as empty, not as legacy', async (store) => {
      const token = await seeder(store).insert({ scopes: [], granularScopes: [] })
      expect(await okValue(store.findById(token.id))).toEqual({ ...token, granularScopes: [] })
    })

    ctx.test('rotate keeps the granular scopes the successor draft carries', async (store) => {
      const seed = seeder(store)
      const old = await seed.insert({ name: 'fine', scopes: [], granularScopes: SCOPES })
      const draft = seed.draft({
        userId: old.userId,
        name: old.name,
        scopes: [],
        granularScopes: old.granularScopes ?? [],
        createdAt: ROTATED_AT,
        previousId: old.id,
        familyId: old.familyId,
      })
      const successor = await okValue(store.rotate(old.id, draft))
      expect(successor.granularScopes, `rotate ${contract('exact-copy')}`).toEqual(SCOPES)
      expect(await okValue(store.findById(successor.id))).toEqual(successor)
      expect(await okValue(store.findById(old.id))).toEqual({ ...old, revoked: true })
    })

    ctx.test('importToken and replaceAll keep granular scopes', async (store) => {
      const seed = seeder(store)
      const imported: Token = {
        ...seed.draft({ scopes: [], granularScopes: SCOPES }),
        id: 500,
        familyId: 500,
      }
      expect(await seed.importToken(imported)).toEqual(imported)
      expect(await okValue(store.findById(500))).toEqual(imported)
      const replaced: Token = {
        ...seed.draft({ scopes: [], granularScopes: SCOPES.slice(1) }),
        id: 600,
        familyId: 600,
      }
      const legacy: Token = { ...seed.draft({ name: 'legacy' }), id: 601, familyId: 601 }
      const users = await okValue(store.findUser(imported.userId))
      await okValue(
        store.replaceAll({
          users: users === null ? [] : [users],
          tokens: [replaced, legacy],
          groups: [],
          projects: [],
        }),
      )
      expect(await okValue(store.findById(600))).toEqual(replaced)
      expect(await okValue(store.findById(601))).toEqual(legacy)
    })
  })
}
