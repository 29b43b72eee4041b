/**
 * The source of randomness for secrets. Injected, so tests can replay exact secrets.
 *
 * @example
 * ```ts
 * import type { RandomSource } from 'patkit'
 * const zeros: RandomSource = { bytes: (n) => new Uint8Array(n) } // never do this outside a test
 * ```
 */
export interface RandomSource {
  /** Returns `length` fresh random bytes. */
  bytes(length: number): Uint8Array
}

// Web Crypto's getRandomValues fills at most 65,536 bytes a call.
const MAX_RANDOM_VALUES = 65_536

function randomBytes(length: number): Uint8Array {
  const out = new Uint8Array(length)
  for (let offset = 0; offset < length; offset += MAX_RANDOM_VALUES) {
    globalThis.crypto.getRandomValues(out.subarray(offset, Math.min(length, offset + MAX_RANDOM_VALUES)))
  }
  return out
}

/**
 * The operating system's CSPRNG, through Web Crypto's `crypto.getRandomValues` (Node, edge runtimes,
 * browsers). This file is the single place in patkit that draws real randomness; everything else
 * receives a {@link RandomSource}.
 *
 * @example
 * ```ts
 * import { cryptoRandom } from 'patkit/authority'
 * cryptoRandom.bytes(20).length // 20
 * ```
 */
export const cryptoRandom: RandomSource = Object.freeze({ bytes: (length: number) => randomBytes(length) })

/**
 * A deterministic, seeded random source (xorshift32) for tests and reproducible fixtures.
 * Never use it for real secrets.
 *
 * @example
 * ```ts
 * import { seededRandom } from 'patkit/fake'
 * const a = seededRandom(42).bytes(4)
 * const b = seededRandom(42).bytes(4)
 * // a and b are equal
 * ```
 */
export function seededRandom(seed: number): RandomSource {
  // xorshift32 has a fixed point at 0; any other 32-bit state cycles through all non-zero values.
  let state = seed >>> 0 || 0x9e3779b9
  return {
    bytes(length) {
      const out = new Uint8Array(length)
      for (let i = 0; i < length; i++) {
        state ^= state << 13
        state >>>= 0
        state ^= state >>> 17
        state ^= state << 5
        state >>>= 0
        out[i] = state & 0xff
      }
      return out
    },
  }
}
