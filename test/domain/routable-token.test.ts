import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkRoutableSecret, crc32, routableSecret } from '../../src/domain/routable-token.js'

// Reference vectors from an independent implementation of GitLab's generator (Python's zlib and
// base64, following lib/authn/token_field/generator/routable_token.rb):
//   payload = f"o:{b36(org)}\nu:{b36(user)}"; enc = rand + payload + bytes([len(payload)])
//   b = urlsafe_b64encode(enc) without '='; e = f"{prefix}{b}.01.{b36(len(b)):0>2}"
//   token = e + b36(zlib.crc32(e)) padded to 7
const VECTORS = [
  [
    Uint8Array.from({ length: 16 }, (_, i) => i),
    'glpat-',
    { userId: 2 },
    'glpat-AAECAwQFBgcICQoLDA0OD286MQp1OjIH.01.0w0v26tqw',
  ],
  [
    new Uint8Array(16).fill(255),
    'glpat-',
    { userId: 123456789, organizationId: 42 },
    'glpat-_____________________286MTYKdToyMWkzdjkN.01.1403uxjxp',
  ],
  [
    Uint8Array.from({ length: 16 }, (_, i) => i),
    'acme-glpat-',
    { userId: 1 },
    'acme-glpat-AAECAwQFBgcICQoLDA0OD286MQp1OjEH.01.0w1xwq7rg',
  ],
] as const

describe('routable tokens', () => {
  it('crc32 is zlib CRC-32', () => {
    expect(crc32('abc')).toBe(891568578)
    expect(crc32('')).toBe(0)
  })

  it.each(VECTORS)('builds GitLab’s token for %o under %s', (bytes, prefix, routing, expected) => {
    expect(routableSecret(bytes, prefix, routing)).toBe(expected)
    expect(checkRoutableSecret(expected, prefix)).toBe('valid')
  })

  it('every generated token checks valid; any single changed character is malformed or not routable', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 16, maxLength: 16 }),
        fc.integer({ min: 1, max: 2 ** 40 }),
        fc.nat(),
        (bytes, userId, position) => {
          const secret = routableSecret(bytes, 'glpat-', { userId })
          expect(checkRoutableSecret(secret, 'glpat-')).toBe('valid')
          const at = 6 + (position % (secret.length - 6))
          const changed = secret.slice(0, at) + (secret[at] === 'a' ? 'b' : 'a') + secret.slice(at + 1)
          expect(checkRoutableSecret(changed, 'glpat-')).not.toBe('valid')
        },
      ),
      { numRuns: 300 },
    )
  })

  it.each([
    ['glpat-any-secret-string', 'other'],
    ['glpat-42GtviOWGNyXPce89DW1QCX6oiI', 'other'],
    ['glpat-AAECAwQFBgcICQoLDA0OD286MQp1OjIH.01.0w0v26tqx', 'malformed'], // CRC off by one
    ['glpat-AAECAwQFBgcICQoLDA0OD286MQp1OjIH.02.0w0v26tqw', 'malformed'], // unknown version
    ['other-AAECAwQFBgcICQoLDA0OD286MQp1OjIH.01.0w0v26tqw', 'malformed'], // another prefix
  ] as const)('%s is %s', (secret, verdict) => {
    expect(checkRoutableSecret(secret, 'glpat-')).toBe(verdict)
  })

  it('refuses random bytes of the wrong length', () => {
    expect(() => routableSecret(new Uint8Array(15), 'glpat-', { userId: 1 })).toThrow(RangeError)
  })
})
