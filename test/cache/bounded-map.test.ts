import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { BoundedMap } from '../../src/cache/bounded-map.js'

describe('BoundedMap (CLOCK eviction)', () => {
  it('evicts the oldest entry not used since it was stored, and reports it', () => {
    const evicted: string[] = []
    const map = new BoundedMap<string, number>(3, (key) => evicted.push(key))
    map.set('a', 1)
    map.set('b', 2)
    map.set('c', 3)
    expect(map.get('a')).toBe(1)
    map.set('d', 4) // 'a' was used: it gets a second chance (moved behind 'c'), and 'b' goes
    expect(evicted).toEqual(['b'])
    expect([...map.entries()].map(([key]) => key)).toEqual(['c', 'a', 'd'])
    map.set('e', 5) // nothing used since: the oldest, 'c', goes
    expect(evicted).toEqual(['b', 'c'])
  })

  it('never holds more than its capacity, and keeps the latest value of a key', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.tuple(fc.boolean(), fc.integer({ min: 0, max: 15 })), { maxLength: 200 }),
        (capacity, operations) => {
          const map = new BoundedMap<number, number>(capacity)
          const latest = new Map<number, number>()
          for (const [step, [isSet, key]] of operations.entries()) {
            if (isSet) {
              map.set(key, step)
              latest.set(key, step)
              expect(map.get(key)).toBe(step)
            } else {
              const value = map.get(key)
              if (value !== undefined) expect(value).toBe(latest.get(key))
            }
            expect(map.size).toBeLessThanOrEqual(capacity)
          }
        },
      ),
    )
  })
})
