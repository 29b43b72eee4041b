import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { mintSecret } from '../../src/domain/mint-secret.js'
import type { RandomSource } from '../../src/domain/random.js'

// design.md: a secret carries at least 128 bits of randomness, and all of it reaches the secret.
function recording(fill: Uint8Array): { random: RandomSource; drawn: () => number } {
  let drawn = 0
  return {
    random: {
      bytes: (length) => {
        drawn += length
        return Uint8Array.from({ length }, (_, i) => fill[i % fill.length] ?? 0)
      },
    },
    drawn: () => drawn,
  }
}

describe('mintSecret randomness', () => {
  it('a routable secret draws at least 16 random bytes (128 bits)', () => {
    const source = recording(new Uint8Array([7]))
    mintSecret({ random: source.random, prefix: 'glpat-' }, 1)
    expect(source.drawn()).toBeGreaterThanOrEqual(16)
  })

  it('every random byte reaches the secret: two draws differing in one byte give two secrets', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 16, maxLength: 16 }),
        fc.integer({ min: 0, max: 15 }),
        (bytes, at) => {
          const changed = Uint8Array.from(bytes)
          changed[at] = ((changed[at] ?? 0) + 1) % 256
          const a = mintSecret({ random: recording(bytes).random, prefix: 'glpat-' }, 1)
          const b = mintSecret({ random: recording(changed).random, prefix: 'glpat-' }, 1)
          expect(a).not.toBe(b)
        },
      ),
      { numRuns: 200 },
    )
  })
})
