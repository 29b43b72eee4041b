import { describe, expect } from 'vitest'
import { type ConformanceContext, seeder } from './context.js'
import { okValue } from './results.js'
import { RACERS } from './rotation.js'

const THROTTLE = 600_000
const T = new Date('2026-06-15T12:00:00.000Z')
const plus = (ms: number): Date => new Date(T.getTime() + ms)

/**
 * Conformance tests of `touchLastUsed`: a write when never used or when `at` is at least `throttleMs`
 * after the stored `lastUsedAt` (exactly `throttleMs` later writes), none inside the window, and one
 * write for concurrent touches in one window.
 *
 * @example
 * ```ts
 * import { describeTouch } from './touch.js'
 * import type { ConformanceContext } from './context.js'
 * declare const ctx: ConformanceContext
 *
 * describeTouch(ctx)
 * ```
 */
export function describeTouch(ctx: ConformanceContext): void {
  describe('touchLastUsed', () => {
    ctx.test('touchLastUsed writes the first use of a never-used token', async (store) => {
      const token = await seeder(store).insert({ lastUsedAt: null })
      expect(await okValue(store.touchLastUsed(token.id, T, THROTTLE))).toBe(true)
      expect(await okValue(store.findById(token.id))).toEqual({ ...token, lastUsedAt: T })
    })

    ctx.test('touchLastUsed does not write inside the throttle window', async (store) => {
      const token = await seeder(store).insert({ lastUsedAt: T })
      for (const at of [plus(0), plus(1), plus(THROTTLE - 1)]) {
        expect(await okValue(store.touchLastUsed(token.id, at, THROTTLE)), at.toISOString()).toBe(false)
      }
      expect(await okValue(store.findById(token.id))).toEqual(token)
    })

    ctx.test('touchLastUsed writes exactly throttleMs after the last use, and later', async (store) => {
      const token = await seeder(store).insert({ lastUsedAt: T })
      expect(await okValue(store.touchLastUsed(token.id, plus(THROTTLE), THROTTLE))).toBe(true)
      expect(await okValue(store.findById(token.id))).toEqual({ ...token, lastUsedAt: plus(THROTTLE) })
      const much = plus(3 * THROTTLE + 12_345)
      expect(await okValue(store.touchLastUsed(token.id, much, THROTTLE))).toBe(true)
      expect(await okValue(store.findById(token.id))).toEqual({ ...token, lastUsedAt: much })
    })

    ctx.test('touchLastUsed never moves lastUsedAt back', async (store) => {
      const token = await seeder(store).insert({ lastUsedAt: T })
      expect(await okValue(store.touchLastUsed(token.id, plus(-THROTTLE * 2), THROTTLE))).toBe(false)
      expect(await okValue(store.touchLastUsed(token.id, plus(-1), 0))).toBe(false)
      expect(await okValue(store.findById(token.id))).toEqual(token)
    })

    ctx.test(
      `of ${RACERS} concurrent touchLastUsed calls in one window exactly one writes`,
      async (store) => {
        const token = await seeder(store).insert({ lastUsedAt: null })
        const instants = Array.from({ length: RACERS }, (_, i) => plus(i * 1000))
        const written = await Promise.all(
          instants.map(async (at) => okValue(store.touchLastUsed(token.id, at, THROTTLE))),
        )
        expect(written.filter(Boolean)).toHaveLength(1)
        const stored = await okValue(store.findById(token.id))
        expect(instants.map((i) => i.getTime())).toContain(stored?.lastUsedAt?.getTime())
      },
    )

    ctx.test('touchLastUsed of an unknown id writes nothing and returns false', async (store) => {
      const token = await seeder(store).insert()
      expect(await okValue(store.touchLastUsed(token.id + 1000, T, THROTTLE))).toBe(false)
      expect(await okValue(store.findById(token.id + 1000))).toBeNull()
      expect(await okValue(store.findById(token.id))).toEqual(token)
    })

    ctx.test('touchLastUsed changes lastUsedAt and nothing else', async (store) => {
      const seed = seeder(store)
      const token = await seed.insert({ impersonation: true, description: 'd', scopes: ['read_api'] })
      const other = await seed.insert()
      expect(await okValue(store.touchLastUsed(token.id, T, THROTTLE))).toBe(true)
      expect(await okValue(store.findById(token.id))).toEqual({ ...token, lastUsedAt: T })
      expect(await okValue(store.findById(other.id))).toEqual(other)
    })
  })
}
