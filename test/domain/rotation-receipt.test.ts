import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { IDEMPOTENCY_KEY_MAX_LENGTH, parseIdempotencyKey } from '../../src/domain/idempotency-key.js'
import { seededRandom } from '../../src/domain/random.js'
import { createReceiptSealer } from '../../src/domain/receipt-seal.js'
import { isRedeemable, receiptExpiry } from '../../src/domain/rotation-receipt.js'
import { token } from '../support/domain-fixtures.js'

const NOW = new Date('2026-06-15T12:00:00.000Z')
const OLD_SECRET = 'glpat-old-secret-presented-again'
const NEW_SECRET = 'glpat-successor-secret-0000000000'
const KEY = '8e03978e-40d5-43e8-bc93-6894a57f9324'

describe('Idempotency-Key values', () => {
  it('accepts 1 to 255 printable ASCII characters, kept exactly as given', () => {
    expect(parseIdempotencyKey(KEY)._unsafeUnwrap()).toBe(KEY)
    expect(parseIdempotencyKey('"quoted sf-string"')._unsafeUnwrap()).toBe('"quoted sf-string"')
    expect(parseIdempotencyKey('x')._unsafeUnwrap()).toBe('x')
    expect(parseIdempotencyKey('~'.repeat(IDEMPOTENCY_KEY_MAX_LENGTH)).isOk()).toBe(true)
  })

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(IDEMPOTENCY_KEY_MAX_LENGTH + 1)],
    ['a control character', 'a\tb'],
    ['a NUL', 'a\u0000b'],
    ['DEL', 'a\u007fb'],
    ['non-ASCII', 'clé'],
  ])('refuses %s as invalid_parameter Idempotency-Key', (_, value) => {
    expect(parseIdempotencyKey(value)._unsafeUnwrapErr()).toEqual({
      type: 'invalid_parameter',
      parameter: 'Idempotency-Key',
      reason: 'invalid',
    })
  })
})

describe('sealed rotation receipts', () => {
  const sealer = createReceiptSealer('test-pepper')
  const binding = { presentedSecret: OLD_SECRET, idempotencyKey: KEY, tokenId: 7 }

  it('opens with the same pepper, presented secret, key and token, and never shows the secret', async () => {
    const sealed = await sealer.seal(binding, NEW_SECRET, seededRandom(1))
    expect(sealed).not.toContain(NEW_SECRET)
    expect(sealed).not.toContain(NEW_SECRET.slice(6))
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/)
    expect((await createReceiptSealer('test-pepper').open(binding, sealed))._unsafeUnwrap()).toBe(NEW_SECRET)
  })

  it('a fresh nonce per seal: one secret sealed twice gives two different texts', async () => {
    const random = seededRandom(2)
    const first = await sealer.seal(binding, NEW_SECRET, random)
    expect(await sealer.seal(binding, NEW_SECRET, random)).not.toBe(first)
  })

  it.each([
    ['another pepper', createReceiptSealer('other-pepper'), binding],
    ['another presented secret', sealer, { ...binding, presentedSecret: `${OLD_SECRET}x` }],
    ['another key', sealer, { ...binding, idempotencyKey: `${KEY}x` }],
    ['another token', sealer, { ...binding, tokenId: 8 }],
  ])('does not open with %s', async (_, other, otherBinding) => {
    const sealed = await sealer.seal(binding, NEW_SECRET, seededRandom(3))
    expect((await other.open(otherBinding, sealed))._unsafeUnwrapErr()).toEqual({
      type: 'unreadable_receipt',
    })
  })

  it('does not open a tampered or malformed text', async () => {
    const sealed = await sealer.seal(binding, NEW_SECRET, seededRandom(4))
    const last = sealed.at(-1) === 'A' ? 'B' : 'A'
    for (const bad of [`${sealed.slice(0, -1)}${last}`, 'v1.', 'v2.AAAA', 'garbage', sealed.slice(0, 20)]) {
      expect((await sealer.open(binding, bad)).isErr(), bad).toBe(true)
    }
  })

  it('round-trips any secret under any binding', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ minLength: 1, maxLength: 60 }),
        fc.string({ minLength: 1, maxLength: 60 }),
        fc.string({ minLength: 1, maxLength: 255 }),
        fc.integer({ min: 1, max: 2 ** 40 }),
        fc.integer(),
        async (secret, presentedSecret, idempotencyKey, tokenId, seed) => {
          const b = { presentedSecret, idempotencyKey, tokenId }
          const sealed = await sealer.seal(b, secret, seededRandom(seed))
          expect((await sealer.open(b, sealed))._unsafeUnwrap()).toBe(secret)
        },
      ),
      { numRuns: 200 },
    )
  })

  it('the key digest binds the presented secret and the key, under the pepper', () => {
    const digest = sealer.keyDigest(OLD_SECRET, KEY)
    expect(digest).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(createReceiptSealer('test-pepper').keyDigest(OLD_SECRET, KEY)).toBe(digest)
    expect(sealer.keyDigest(OLD_SECRET, `${KEY}x`)).not.toBe(digest)
    expect(sealer.keyDigest(`${OLD_SECRET}x`, KEY)).not.toBe(digest)
    expect(createReceiptSealer('other-pepper').keyDigest(OLD_SECRET, KEY)).not.toBe(digest)
    // Length-prefixed parts: moving a character from one part to the other changes the digest.
    expect(sealer.keyDigest('ab', 'c')).not.toBe(sealer.keyDigest('a', 'bc'))
    expect(digest).not.toContain(KEY)
  })
})

describe('receipt redemption rule', () => {
  const successor = token({ id: 2, previousId: 1, expiresAt: '2026-06-22' })
  const receipt = { successorId: 2, expiresAt: new Date(NOW.getTime() + 600_000) }

  it('the window ends at now + window, exclusive', () => {
    expect(receiptExpiry(NOW, 600_000)).toEqual(new Date('2026-06-15T12:10:00.000Z'))
    expect(isRedeemable(receipt, successor, new Date(NOW.getTime() + 599_999))).toBe(true)
    expect(isRedeemable(receipt, successor, new Date(NOW.getTime() + 600_000))).toBe(false)
  })

  it('only for the receipt successor, still active and never used', () => {
    expect(isRedeemable(receipt, successor, NOW)).toBe(true)
    expect(isRedeemable(receipt, null, NOW)).toBe(false)
    expect(isRedeemable(receipt, { ...successor, id: 3 }, NOW)).toBe(false)
    expect(isRedeemable(receipt, { ...successor, revoked: true }, NOW)).toBe(false)
    expect(isRedeemable(receipt, { ...successor, lastUsedAt: NOW }, NOW)).toBe(false)
    expect(isRedeemable(receipt, { ...successor, expiresAt: '2026-06-15' }, NOW)).toBe(false)
  })
})
