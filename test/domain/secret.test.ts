import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createDigester, encodeBase62, generateSecret, SECRET_RANDOM_BYTES } from '../../src/domain/index.js'
import { replayRandom } from '../support/domain-fixtures.js'

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** An independent base62 decoder, so the property does not trust the encoder it checks. */
function decode(text: string, length: number): Uint8Array {
  let n = 0n
  for (const ch of text) n = n * 62n + BigInt(ALPHABET.indexOf(ch))
  const out = new Uint8Array(length)
  for (let i = length - 1; i >= 0; i--) {
    out[i] = Number(n & 0xffn)
    n >>= 8n
  }
  return out
}

describe('secrets', () => {
  it('secrets carry the prefix and all 160 random bits (at least 128)', () => {
    expect(SECRET_RANDOM_BYTES * 8).toBeGreaterThanOrEqual(128)
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: SECRET_RANDOM_BYTES, maxLength: SECRET_RANDOM_BYTES }),
        fc.constantFrom('glpat-', 'custom_', ''),
        (bytes, prefix) => {
          const secret = generateSecret(replayRandom(bytes), prefix)
          expect(secret.startsWith(prefix)).toBe(true)
          const body = secret.slice(prefix.length)
          expect(body).toMatch(/^[0-9A-Za-z]{27}$/)
          // Decoding gives back every input byte: no entropy is lost in the encoding.
          expect(decode(body, SECRET_RANDOM_BYTES)).toEqual(bytes)
        },
      ),
      { numRuns: 500 },
    )
  })

  it('the default prefix is glpat-', () => {
    expect(generateSecret(replayRandom(new Uint8Array(20)))).toBe(`glpat-${'0'.repeat(27)}`)
  })

  it('the largest 20-byte value still fits the fixed width', () => {
    expect(encodeBase62(new Uint8Array(20).fill(255), 27)).toHaveLength(27)
  })

  it('digests are deterministic for one pepper and differ across peppers', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), fc.string(), (p1, p2, secret) => {
        fc.pre(p1 !== p2)
        const a = createDigester(p1)
        expect(a(secret)).toBe(createDigester(p1)(secret))
        expect(a(secret)).not.toBe(createDigester(p2)(secret))
        expect(a(secret)).toMatch(/^[A-Za-z0-9_-]{43}$/)
      }),
      { numRuns: 300 },
    )
  })

  it('a digest is HMAC-SHA-256 keyed by the pepper', async () => {
    const { createHmac } = await import('node:crypto')
    const expected = createHmac('sha256', 'pepper').update('glpat-x').digest('base64url')
    expect(createDigester('pepper')('glpat-x')).toBe(expected)
  })

  it('an empty pepper is refused', () => {
    expect(() => createDigester('')).toThrow(RangeError)
  })
})
