import { expect } from 'vitest'
import type { CalendarDate } from '../../domain/calendar.js'
import { tokenFixture } from '../fixtures.js'
import { type ConformanceContext, listNames, seeder } from './context.js'
import { contract } from './contracts.js'
import { errValue, okValue } from './results.js'

/**
 * Conformance tests of `findByDigest`, `findById`, `insert` and `importToken`.
 */
export function describeLookups(ctx: ConformanceContext): void {
  ctx.group('lookups', () => {
    ctx.test('findByDigest returns the stored token', async (store) => {
      const seed = seeder(store)
      const [, b] = await seed.insertAll([{ name: 'a' }, { name: 'b' }, { name: 'c' }])
      expect(await okValue(store.findByDigest(b?.digest ?? ''))).toEqual(b)
    })

    ctx.test('findByDigest returns null for an unknown digest', async (store) => {
      const token = await seeder(store).insert()
      expect(await okValue(store.findByDigest(`${token.digest}x`)), contract('exact-digest')).toBeNull()
      expect(
        await okValue(store.findByDigest(token.digest.toUpperCase())),
        `findByDigest(the digest upper-cased) ${contract('exact-digest')}`,
      ).toBeNull()
    })

    ctx.test('findById returns the stored token', async (store) => {
      const seed = seeder(store)
      const [, b] = await seed.insertAll([{ name: 'a' }, { name: 'b' }, { name: 'c' }])
      expect(await okValue(store.findById(b?.id ?? 0))).toEqual(b)
    })

    ctx.test('findById returns null for an unknown id', async (store) => {
      const token = await seeder(store).insert()
      expect(await okValue(store.findById(token.id + 1000))).toBeNull()
      expect(await okValue(store.findById(0))).toBeNull()
    })
  })

  ctx.group('insert', () => {
    ctx.test('insert stores every field exactly', async (store) => {
      const seed = seeder(store)
      const draft = seed.draft({
        userId: 3,
        name: 'Deploy: prod_east 100%',
        description: 'rotated by CI',
        scopes: ['read_api', 'api', 'self_rotate'],
        createdAt: new Date('2026-02-03T04:05:06.789Z'),
        lastUsedAt: new Date('2026-03-04T05:06:07.891Z'),
        expiresAt: '2026-12-31' as CalendarDate,
        impersonation: true,
      })
      await seed.user(3)
      const token = await okValue(store.insert(draft))
      expect(token, `insert(draft) ${contract('exact-copy')}`).toEqual({
        ...draft,
        id: token.id,
        familyId: token.id,
      })
      expect(
        await okValue(store.findById(token.id)),
        `findById(${token.id}) ${contract('exact-copy')}`,
      ).toEqual(token)
      expect(
        await okValue(store.findByDigest(draft.digest)),
        `findByDigest ${contract('exact-copy')}`,
      ).toEqual(token)
    })

    ctx.test('insert keeps scopes of an application’s own vocabulary as given', async (store) => {
      // The authority's `scopes` option makes any scope-token a scope: a store keeps the strings as is.
      const seed = seeder(store)
      const scopes = ['billing:read', 'Reports.Export', 'x'.repeat(255), 'a~b!#[]{}']
      const token = await seed.insert({ scopes })
      const scopesOf = `the scopes ${contract('exact-copy')}`
      expect((await okValue(store.findById(token.id)))?.scopes, `findById: ${scopesOf}`).toEqual(scopes)
      expect((await okValue(store.findByDigest(token.digest)))?.scopes, `findByDigest: ${scopesOf}`).toEqual(
        scopes,
      )
    })

    ctx.test('insert assigns increasing positive integer ids', async (store) => {
      const tokens = await seeder(store).insertAll([{}, {}, {}, {}])
      const ids = tokens.map((t) => t.id)
      const increasing = contract('increasing-ids')
      for (const id of ids) expect(Number.isSafeInteger(id) && id > 0, `id ${id} ${increasing}`).toBe(true)
      expect(ids, `insert ids in order ${increasing}`).toEqual([...ids].sort((a, b) => a - b))
      expect(new Set(ids).size, `distinct insert ids ${increasing}`).toBe(ids.length)
    })

    ctx.test('insert makes a first-generation token its own family', async (store) => {
      const token = await seeder(store).insert({ familyId: null, previousId: null })
      expect(token.familyId, `insert(draft with familyId null) ${contract('exact-copy')}`).toBe(token.id)
      expect(token.previousId).toBeNull()
    })

    ctx.test('insert keeps a given family and previous id', async (store) => {
      const seed = seeder(store)
      const first = await seed.insert({ revoked: true })
      const second = await seed.insert({ familyId: first.familyId, previousId: first.id })
      expect(second.familyId).toBe(first.id)
      expect(second.previousId).toBe(first.id)
      expect(await okValue(store.findById(second.id))).toEqual(second)
    })

    ctx.test('insert refuses a digest that is already stored', async (store) => {
      const seed = seeder(store)
      const first = await seed.insert({ name: 'first' })
      const error = await errValue(
        store.insert(seed.draft({ name: 'second', digest: first.digest })),
        'taken-id-or-digest',
        `token ${first.id} has that digest`,
      )
      expect(error.type, contract('taken-id-or-digest')).toBe('store_failure')
      expect(await okValue(store.findByDigest(first.digest))).toEqual(first)
      expect(await listNames(store, {})).toEqual(['first'])
    })
  })

  ctx.group('importToken', () => {
    ctx.test('importToken stores a token exactly as given', async (store) => {
      const token = tokenFixture(500, {
        userId: 2,
        name: 'legacy',
        description: 'from the old system',
        scopes: ['read_repository', 'read_api'],
        createdAt: new Date('2020-07-23T14:31:47.729Z'),
        lastUsedAt: new Date('2021-01-01T00:00:00.001Z'),
        expiresAt: null,
        revoked: true,
        impersonation: true,
      })
      expect(
        await seeder(store).importToken(token),
        `importToken(token 500) ${contract('exact-copy')}`,
      ).toEqual(token)
      expect(await okValue(store.findById(500)), `findById(500) ${contract('exact-copy')}`).toEqual(token)
      expect(
        await okValue(store.findByDigest(token.digest)),
        `findByDigest ${contract('exact-copy')}`,
      ).toEqual(token)
    })

    ctx.test('importToken keeps the given family and previous id', async (store) => {
      const seed = seeder(store)
      await seed.importToken(tokenFixture(40, { revoked: true }))
      const successor = tokenFixture(41, { familyId: 40, previousId: 40 })
      expect(await seed.importToken(successor)).toEqual(successor)
      expect(await okValue(store.findById(41))).toEqual(successor)
    })

    ctx.test('insert after importToken assigns ids above every imported id', async (store) => {
      const seed = seeder(store)
      await seed.importToken(tokenFixture(2000))
      await seed.importToken(tokenFixture(1500))
      const inserted = await seed.insert()
      const increasing = contract('increasing-ids')
      expect(inserted.id, `insert after importing ids 2000 and 1500 ${increasing}`).toBeGreaterThan(2000)
      expect(inserted.familyId).toBe(inserted.id)
      await seed.importToken(tokenFixture(inserted.id + 10))
      expect(
        (await seed.insert()).id,
        `insert after importing id ${inserted.id + 10} ${increasing}`,
      ).toBeGreaterThan(inserted.id + 10)
    })

    ctx.test('importToken refuses an id that is already stored', async (store) => {
      const seed = seeder(store)
      const original = await seed.importToken(tokenFixture(77, { name: 'original' }))
      const error = await errValue(
        store.importToken(tokenFixture(77, { name: 'impostor', digest: 'another-digest' })),
        'taken-id-or-digest',
        'id 77 is stored',
      )
      expect(error.type, contract('taken-id-or-digest')).toBe('store_failure')
      expect(await okValue(store.findById(77))).toEqual(original)
      expect(await okValue(store.findByDigest('another-digest'))).toBeNull()
    })

    ctx.test('importToken refuses a digest that is already stored', async (store) => {
      const seed = seeder(store)
      const original = await seed.insert({ name: 'original' })
      const error = await errValue(
        store.importToken(tokenFixture(original.id + 100, { digest: original.digest })),
        'taken-id-or-digest',
        `token ${original.id} has that digest`,
      )
      expect(error.type, contract('taken-id-or-digest')).toBe('store_failure')
      expect(await okValue(store.findByDigest(original.digest))).toEqual(original)
      expect(await okValue(store.findById(original.id + 100))).toBeNull()
    })
  })

  ctx.group('snapshots', () => {
    ctx.test('a token already read does not change when the store changes it', async (store) => {
      const token = await seeder(store).insert()
      const before = await okValue(store.findById(token.id))
      const copy = structuredClone(before)
      await okValue(store.revoke(token.id))
      await okValue(store.touchLastUsed(token.id, new Date('2026-05-01T00:00:00.000Z'), 0, null))
      expect(
        before,
        `a token findById returned, after revoke and touchLastUsed ${contract('snapshots')}`,
      ).toEqual(copy)
      expect(
        token,
        `the token insert returned, after revoke and touchLastUsed ${contract('snapshots')}`,
      ).toEqual(copy)
      expect(await okValue(store.findById(token.id))).toMatchObject({ revoked: true })
    })
  })
}
