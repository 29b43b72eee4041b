import { err, ok } from 'neverthrow'
import { expect } from 'vitest'
import { userFixture } from '../fixtures.js'
import { type ConformanceContext, listNames, seeder } from './context.js'
import { errValue, okValue } from './results.js'

/**
 * Conformance tests of the optional `replaceAll` capability: all the data replaced in one atomic
 * step, by what a callback writes into a store that holds nothing; a refused callback changes nothing.
 */
export function describeReplaceAll(ctx: ConformanceContext): void {
  ctx.group('replaceAll', () => {
    ctx.testOptional('replaceAll', 'replaceAll replaces every token and user', async (store) => {
      const seed = seeder(store)
      const old = await seed.insert({ name: 'old', userId: 1 })
      const fresh = seed.draft({ name: 'fresh', userId: 2 })
      const replaced = await okValue(
        store.replaceAll(async (empty) => {
          const put = await empty.putUser(userFixture(2))
          if (put.isErr()) return err(put.error)
          return empty.importToken({ ...fresh, id: 5, familyId: 5 })
        }),
      )
      expect(replaced.name).toBe('fresh')
      expect(await listNames(store, {})).toEqual(['fresh'])
      expect(await okValue(store.findByDigest(old.digest))).toBeNull()
      expect(await okValue(store.findUser(1))).toBeNull()
      expect(await okValue(store.findUser(2))).toMatchObject({ id: 2 })
    })

    ctx.testOptional('replaceAll', 'the store replaceAll hands over holds nothing', async (store) => {
      const seed = seeder(store)
      const old = await seed.insert({ name: 'old', userId: 1 })
      const seen = await okValue(
        store.replaceAll(async (empty) => {
          const listed = await empty.list({
            filter: {},
            sort: 'id_asc',
            page: { page: 1, perPage: 10 },
            now: old.createdAt,
          })
          const found = await empty.findByDigest(old.digest)
          const user = await empty.findUser(1)
          if (listed.isErr()) return err(listed.error)
          return ok({
            total: listed.value.total,
            found: found.isOk() ? found.value : 'failed',
            user: user.isOk() ? user.value : 'failed',
          })
        }),
      )
      expect(seen).toEqual({ total: 0, found: null, user: null })
    })

    ctx.testOptional('replaceAll', 'a refused replaceAll changes nothing', async (store) => {
      const seed = seeder(store)
      const old = await seed.insert({ name: 'old', userId: 1 })
      const refused = await errValue(
        store.replaceAll(async (empty) => {
          await empty.putUser(userFixture(2))
          await empty.insert(seed.draft({ name: 'half', userId: 2 }))
          return err({ type: 'refused' } as const)
        }),
      )
      expect(refused).toEqual({ type: 'refused' })
      expect(await listNames(store, {})).toEqual(['old'])
      expect(await okValue(store.findByDigest(old.digest))).toEqual(old)
      expect(await okValue(store.findUser(1))).toMatchObject({ id: 1 })
      expect(await okValue(store.findUser(2))).toBeNull()
    })

    ctx.testOptional(
      'replaceAll',
      'ids inserted after replaceAll stay above every id before',
      async (store) => {
        const seed = seeder(store)
        const [, second] = await seed.insertAll([{ name: 'a' }, { name: 'b' }])
        await okValue(store.replaceAll(async () => ok(undefined)))
        expect(await listNames(store, {})).toEqual([])
        const next = await seed.insert({ name: 'c' })
        expect(next.id).toBeGreaterThan(second?.id ?? 0)
      },
    )
  })
}
