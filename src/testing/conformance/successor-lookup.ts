import { expect } from 'vitest'
import type { Token } from '../../domain/token.js'
import { type ConformanceContext, seeder } from './context.js'
import { okValue } from './results.js'

const ROTATED_AT = new Date('2026-06-15T12:00:00.000Z')

/**
 * Conformance tests of `findSuccessor`, which the rotation
 * grace window reads: the one token rotated from a token, as stored now, or `null`.
 */
export function describeSuccessorLookup(ctx: ConformanceContext): void {
  ctx.group('findSuccessor', () => {
    ctx.test('findSuccessor returns the token rotated from a token', async (store) => {
      const seed = seeder(store)
      const first = await seed.insert({ name: 'ci' })
      const rotate = async (old: Token) =>
        okValue(
          store.rotate(
            old.id,
            seed.draft({ name: 'ci', createdAt: ROTATED_AT, previousId: old.id, familyId: old.familyId }),
          ),
        )
      const second = await rotate(first)
      const third = await rotate(second)
      expect(await okValue(store.findSuccessor(first.id))).toEqual({ ...second, revoked: true })
      expect(await okValue(store.findSuccessor(second.id))).toEqual(third)
      expect(await okValue(store.findSuccessor(third.id))).toBeNull()
    })

    ctx.test('findSuccessor returns null for a token never rotated or unknown', async (store) => {
      const seed = seeder(store)
      const [a, b] = await seed.insertAll([{ name: 'a' }, { name: 'b' }])
      expect(await okValue(store.findSuccessor(a?.id ?? 0))).toBeNull()
      expect(await okValue(store.findSuccessor((b?.id ?? 0) + 1000))).toBeNull()
    })

    ctx.test('findSuccessor finds an imported successor', async (store) => {
      const seed = seeder(store)
      const old = await seed.insert({ name: 'old', revoked: true })
      const draft = seed.draft({ name: 'next', previousId: old.id, familyId: old.familyId })
      const imported = await okValue(
        store.importToken({ ...draft, id: old.id + 500, familyId: old.familyId }),
      )
      expect(await okValue(store.findSuccessor(old.id))).toEqual(imported)
    })
  })
}
