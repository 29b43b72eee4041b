import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createDigester } from '../../src/domain/secret.js'

describe('secrets', () => {
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
