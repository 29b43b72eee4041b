import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { seededRandom } from '../../../src/domain/random.js'
import { openHookSecret, parseHookSecretKey, sealHookSecret } from '../../../src/fake/hooks/hook-secret.js'

const KEY = new Uint8Array(32).fill(7)
const OTHER = new Uint8Array(32).fill(8)

describe('hook secrets', () => {
  it('opens what it sealed, for any token', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.integer({ min: 1 }), (token, seed) => {
        const sealed = sealHookSecret(KEY, token, seededRandom(seed))
        expect(sealed.startsWith('v1.')).toBe(true)
        expect(openHookSecret(KEY, sealed)._unsafeUnwrap()).toBe(token)
      }),
    )
  })

  it('never shows the token in the sealed text', () => {
    const token = 'glhook-plain-secret-value'
    const sealed = sealHookSecret(KEY, token, seededRandom(9))
    expect(sealed).not.toContain(token)
    expect(Buffer.from(sealed.slice(3), 'base64url').toString('latin1')).not.toContain(token)
  })

  it('seals the same token differently each time (a fresh nonce)', () => {
    const random = seededRandom(1)
    expect(sealHookSecret(KEY, 'abc', random)).not.toBe(sealHookSecret(KEY, 'abc', random))
  })

  it('refuses a text sealed under another key, altered, cut or of another version', () => {
    const sealed = sealHookSecret(KEY, 'hook-token', seededRandom(3))
    const unreadable = { type: 'unreadable_hook_secret' }
    expect(openHookSecret(OTHER, sealed)._unsafeUnwrapErr()).toEqual(unreadable)
    for (let i = 3; i < sealed.length; i++) {
      const flipped = sealed[i] === 'A' ? 'B' : 'A'
      const tampered = sealed.slice(0, i) + flipped + sealed.slice(i + 1)
      expect(openHookSecret(KEY, tampered).isErr(), `position ${i}`).toBe(true)
    }
    expect(openHookSecret(KEY, sealed.slice(0, 20))._unsafeUnwrapErr()).toEqual(unreadable)
    expect(openHookSecret(KEY, `v2.${sealed.slice(3)}`)._unsafeUnwrapErr()).toEqual(unreadable)
    expect(openHookSecret(KEY, 'hook-token')._unsafeUnwrapErr()).toEqual(unreadable)
  })

  it('throws for a key that is not 32 bytes', () => {
    expect(() => sealHookSecret(new Uint8Array(16), 'x', seededRandom(1))).toThrow(RangeError)
    expect(() => openHookSecret(new Uint8Array(31), 'v1.x')).toThrow(RangeError)
  })

  it('reads a key as 64 hex digits or base64 of 32 bytes', () => {
    expect(parseHookSecretKey('07'.repeat(32))._unsafeUnwrap()).toEqual(KEY)
    expect(parseHookSecretKey(Buffer.from(KEY).toString('base64'))._unsafeUnwrap()).toEqual(KEY)
    expect(parseHookSecretKey(Buffer.from(KEY).toString('base64url'))._unsafeUnwrap()).toEqual(KEY)
    expect(parseHookSecretKey('07'.repeat(31)).isErr()).toBe(true)
    expect(parseHookSecretKey(Buffer.from(new Uint8Array(16)).toString('base64')).isErr()).toBe(true)
    expect(parseHookSecretKey('not a key!').isErr()).toBe(true)
  })
})
