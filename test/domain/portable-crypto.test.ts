import { createHash, createHmac, createSecretKey, hkdfSync } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { concatBytes, fromBase64, toBase64Url, utf8Bytes } from '../../src/domain/bytes.js'
import { nodeCrypto } from '../../src/domain/node-crypto.js'
import { seededRandom } from '../../src/domain/random.js'
import { receiptSealerWith } from '../../src/domain/receipt-seal.js'
import { digesterWith } from '../../src/domain/secret.js'
import { hmacSha256, sha256 } from '../../src/domain/sha256.js'

// What an edge runtime runs (no node:crypto, no Buffer) must give the bytes Node gives, so a token
// minted on one runtime authenticates on the other and a receipt sealed on one opens on the other.

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')

// A digest and a receipt the previous, node:crypto-only implementation produced (pepper
// 'known-answer pepper', seededRandom(7)): stored values must keep opening.
const KNOWN = {
  digest: 'uCwcUk2iAYfOADKrFNYroyI386KCu9eDRLz2kW-uDKs',
  keyDigest: 'Sr5TXwBqesWxfZw74EMn8XBZEEiDeatDDxCJUm8k7jc',
  sealed: 'v1.5wdDRf-UulevCv3kiV7tFzrpCRShxT-nGApPdQpLuSgTrCjATT5ujephOd0JNUy71u0',
}
const KNOWN_BINDING = { presentedSecret: 'glpat-old-secret', idempotencyKey: 'key-1', tokenId: 42 }

describe('portable SHA-256 and HMAC', () => {
  it('matches the FIPS 180-4 examples', () => {
    expect(hex(sha256([utf8Bytes('abc')]))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    )
    expect(hex(sha256([]))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
    expect(hex(sha256([utf8Bytes('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')]))).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    )
  })

  it('equals node:crypto for any message split into any parts, across block boundaries', () => {
    fc.assert(
      fc.property(fc.array(fc.uint8Array({ maxLength: 150 }), { maxLength: 4 }), (parts) => {
        const node = createHash('sha256')
        for (const part of parts) node.update(part)
        expect(hex(sha256(parts))).toBe(node.digest('hex'))
      }),
      { numRuns: 400 },
    )
  })

  it('HMAC equals node:crypto for any key (short, block-sized, longer than a block) and message', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.uint8Array({ maxLength: 200 }), (key, message) => {
        expect(hex(hmacSha256(key)([message]))).toBe(createHmac('sha256', key).update(message).digest('hex'))
      }),
      { numRuns: 400 },
    )
  })
})

describe('portable bytes', () => {
  it('base64url equals Buffer for any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        expect(toBase64Url(bytes)).toBe(Buffer.from(bytes).toString('base64url'))
        expect(hex(fromBase64(toBase64Url(bytes)))).toBe(hex(bytes))
      }),
      { numRuns: 400 },
    )
  })

  it('lenient base64 decoding equals Buffer for any text (skipped characters, padding, stray bits)', () => {
    const chars = fc.constantFrom(...'AQgw/+_-= !\u00e9\u0000z9'.split(''))
    fc.assert(
      fc.property(fc.array(chars, { maxLength: 40 }), fc.string({ maxLength: 20 }), (picked, text) => {
        for (const input of [picked.join(''), text]) {
          expect(hex(fromBase64(input)), input).toBe(Buffer.from(input, 'base64').toString('hex'))
        }
      }),
      { numRuns: 400 },
    )
  })

  it('concatenates', () => {
    expect([...concatBytes([new Uint8Array([1]), new Uint8Array(0), new Uint8Array([2, 3])])]).toEqual([
      1, 2, 3,
    ])
  })
})

// 300 runs of HMACs over secrets up to 1,200 graphemes long: seconds of CPU on a busy machine.
describe('digester and receipts on both backends', { timeout: 30_000 }, () => {
  it('node:crypto is found on this Node', () => {
    expect(nodeCrypto).toBeDefined()
  })

  it('the portable digester equals the node:crypto one for any pepper and secret', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string(), (pepper, secret) => {
        expect(digesterWith(pepper, undefined)(secret)).toBe(digesterWith(pepper, nodeCrypto)(secret))
      }),
      { numRuns: 300 },
    )
    const bytes = new Uint8Array([0, 255, 7])
    expect(digesterWith(bytes, undefined)('glpat-x')).toBe(digesterWith(bytes, nodeCrypto)('glpat-x'))
  })

  it("node:crypto's one-shot pads digester equals its createHmac, one digester over many secrets", () => {
    const hash = nodeCrypto?.hash
    expect(hash).toBeTypeOf('function')
    const objectHmac = { createHmac, createSecretKey }
    const secret = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 80 }),
      // Past the in-place buffer (1,024 bytes): the digester hands those to createHmac.
      fc.string({ unit: 'grapheme', minLength: 300, maxLength: 1200 }),
    )
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ minLength: 1, maxLength: 80 }),
          fc.uint8Array({ minLength: 65, maxLength: 200 }),
        ),
        fc.array(secret, { minLength: 1, maxLength: 8 }),
        (pepper, secrets) => {
          const fast = digesterWith(pepper, nodeCrypto)
          const reference = digesterWith(pepper, objectHmac)
          for (const s of secrets) expect(fast(s)).toBe(reference(s))
        },
      ),
      { numRuns: 300 },
    )
    expect(digesterWith('known-answer pepper', objectHmac)('glpat-abc')).toBe(KNOWN.digest)
  })

  it('both backends give the values the node:crypto-only implementation stored', async () => {
    for (const crypto of [nodeCrypto, undefined]) {
      expect(digesterWith('known-answer pepper', crypto)('glpat-abc')).toBe(KNOWN.digest)
      const sealer = receiptSealerWith('known-answer pepper', crypto)
      expect(sealer.keyDigest(KNOWN_BINDING.presentedSecret, KNOWN_BINDING.idempotencyKey)).toBe(
        KNOWN.keyDigest,
      )
      expect((await sealer.open(KNOWN_BINDING, KNOWN.sealed))._unsafeUnwrap()).toBe('glpat-successor-secret')
      expect(await sealer.seal(KNOWN_BINDING, 'glpat-successor-secret', seededRandom(7))).toBe(KNOWN.sealed)
    }
  })

  it('the key derivation is RFC 5869 HKDF-SHA-256', async () => {
    // The receipt's digest key, derived by hand with node:crypto's HKDF, gives the same key digest.
    const digestKey = Buffer.from(
      hkdfSync(
        'sha256',
        utf8Bytes('p'),
        new Uint8Array(0),
        utf8Bytes('patkit rotation receipt v1: idempotency key digest'),
        32,
      ),
    )
    const prefixed = (parts: string[]) =>
      concatBytes(
        parts.flatMap((part) => {
          const bytes = utf8Bytes(part)
          const length = Buffer.alloc(4)
          length.writeUInt32BE(bytes.length)
          return [length, bytes]
        }),
      )
    const expected = createHmac('sha256', digestKey)
      .update(prefixed(['s', 'k']))
      .digest('base64url')
    expect(receiptSealerWith('p', undefined).keyDigest('s', 'k')).toBe(expected)
  })
})
