import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { RowsById } from '../../src/memory/rows-by-id.js'

// Ids near the dense end, just past the gap limit, and far away, in any order and with overwrites.
const ids = fc.oneof(
  fc.integer({ min: 1, max: 50 }),
  fc.integer({ min: 1000, max: 1100 }),
  fc.integer({ min: 1, max: 2 ** 53 - 1 }),
)

describe('RowsById', () => {
  it('answers get, has and values as a Map over the same writes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(ids, fc.integer()), { maxLength: 200 }),
        fc.array(ids),
        (writes, probes) => {
          const rows = new RowsById<{ v: number }>()
          const reference = new Map<number, { v: number }>()
          for (const [id, v] of writes) {
            rows.set(id, { v })
            reference.set(id, { v })
          }
          for (const id of [...probes, ...reference.keys()]) {
            expect(rows.get(id)).toEqual(reference.get(id))
            expect(rows.has(id)).toBe(reference.has(id))
          }
          const byValue = (a: { v: number }, b: { v: number }) => a.v - b.v
          expect(rows.values().sort(byValue)).toEqual([...reference.values()].sort(byValue))
        },
      ),
    )
  })

  it('keeps one copy of an id written to the map and then again as the array reaches it', () => {
    // fast-check's counterexample: 1068 goes to the map, 1000 grows the array, 1068 again lands in it.
    const rows = new RowsById<string>()
    rows.set(1068, 'old')
    rows.set(1000, 'between')
    rows.set(1068, 'new')
    expect(rows.get(1068)).toBe('new')
    expect(rows.values().sort()).toEqual(['between', 'new'])
  })

  it('moves an id kept apart into the array when the array grows over it', () => {
    const rows = new RowsById<string>()
    rows.set(1500, 'far')
    for (let id = 1; id <= 1000; id++) rows.set(id, `near ${id}`)
    rows.set(1600, 'past it')
    expect(rows.get(1500)).toBe('far')
    expect(rows.values().filter((v) => v === 'far')).toHaveLength(1)
    rows.set(1500, 'replaced')
    expect(rows.values().filter((v) => v === 'far' || v === 'replaced')).toEqual(['replaced'])
  })
})
