import { err, ok, type Result } from 'neverthrow'
import { concatBytes, fromBase64, toBase64Url, utf8Bytes, utf8Text } from './bytes.js'
import { type NodeCrypto, nodeCrypto } from './node-crypto.js'
import type { RandomSource } from './random.js'
import { hmacSha256 } from './sha256.js'

/**
 * What a sealed receipt is bound to: the secret the rotating request presented, its
 * `Idempotency-Key`, and the id of the rotated token.
 */
interface ReceiptBinding {
  readonly presentedSecret: string
  readonly idempotencyKey: string
  readonly tokenId: number
}

/** A sealed text that does not open: another pepper, secret, key or token, or tampered data. */
interface UnreadableReceipt {
  readonly type: 'unreadable_receipt'
}

/** Seals a successor's secret for a rotation receipt, and finds receipts by a digest of their key. */
export interface ReceiptSealer {
  /** HMAC-SHA-256 under a pepper-derived key of the presented secret and the key (base64url). */
  keyDigest(presentedSecret: string, idempotencyKey: string): string
  /** `v1.` + base64url(nonce, AES-256-GCM ciphertext, tag). Web Crypto's AES answers with a promise. */
  seal(binding: ReceiptBinding, secret: string, random: RandomSource): Promise<string>
  open(binding: ReceiptBinding, sealed: string): Promise<Result<string, UnreadableReceipt>>
}

const VERSION = 'v1.'
const NONCE_BYTES = 12
const TAG_BYTES = 16
const HASH_BYTES = 32
const SEAL_SALT = utf8Bytes('patkit rotation receipt v1')
const SEAL_INFO = utf8Bytes('aes-256-gcm seal key')
const DIGEST_INFO = utf8Bytes('patkit rotation receipt v1: idempotency key digest')

/** HMAC-SHA-256 of the parts under a key, on `node:crypto` when there is one, else in JavaScript. */
type Mac = (key: Uint8Array, parts: readonly Uint8Array[]) => Uint8Array

function macWith(crypto: NodeCrypto | undefined): Mac {
  if (crypto === undefined) return (key, parts) => hmacSha256(key)(parts)
  return (key, parts) => {
    const hmac = crypto.createHmac('sha256', key)
    for (const part of parts) hmac.update(part)
    return new Uint8Array(hmac.digest())
  }
}

// HKDF-SHA-256 (RFC 5869) for one hash length of output: extract, then the first expand block. An
// empty salt is HashLen zeros, which HMAC pads to the same key.
function hkdf32(mac: Mac, material: Uint8Array, salt: Uint8Array, info: Uint8Array): Uint8Array {
  const prk = mac(salt, [material])
  return mac(prk, [info, new Uint8Array([1])]).subarray(0, HASH_BYTES)
}

// Each part is prefixed with its byte length, so no two different tuples encode alike ('ab','c' vs 'a','bc').
function lengthPrefixed(parts: readonly Uint8Array[]): Uint8Array {
  const chunks: Uint8Array[] = []
  for (const part of parts) {
    const length = new Uint8Array(4)
    new DataView(length.buffer).setUint32(0, part.length)
    chunks.push(length, part)
  }
  return concatBytes(chunks)
}

function aad(tokenId: number): Uint8Array {
  return utf8Bytes(`patkit rotation receipt v1 for token ${tokenId}`)
}

async function aesKey(raw: Uint8Array, usage: 'encrypt' | 'decrypt'): Promise<CryptoKey> {
  return globalThis.crypto.subtle.importKey('raw', raw as Uint8Array<ArrayBuffer>, 'AES-GCM', false, [usage])
}

/**
 * The sealer of one pepper. The key that seals a successor's secret is derived with HKDF-SHA-256 from
 * the pepper, the presented (old) token's plaintext secret and the `Idempotency-Key` value: the store
 * holds none of them (only digests), so a database dump alone never opens a receipt, and neither does
 * the pepper without the old secret and the key. Every seal draws a fresh 96-bit nonce from the
 * injected random source; the rotated token's id is authenticated data, so a receipt copied onto
 * another token does not open.
 */
export function createReceiptSealer(pepper: string | Uint8Array): ReceiptSealer {
  return receiptSealerWith(pepper, nodeCrypto)
}

/**
 * {@link createReceiptSealer} with its HMACs on a given backend: `node:crypto`, or undefined for the
 * JavaScript HMAC an edge runtime uses. AES-256-GCM is Web Crypto's on every runtime. Tests check that
 * each backend opens what the other sealed.
 */
export function receiptSealerWith(
  pepper: string | Uint8Array,
  crypto: NodeCrypto | undefined,
): ReceiptSealer {
  if (pepper.length === 0) throw new RangeError('pepper must not be empty')
  const mac = macWith(crypto)
  const pepperBytes = typeof pepper === 'string' ? utf8Bytes(pepper) : Uint8Array.from(pepper)
  const digestKey = hkdf32(mac, pepperBytes, new Uint8Array(0), DIGEST_INFO)

  function sealKey(binding: ReceiptBinding): Uint8Array {
    const material = lengthPrefixed([
      pepperBytes,
      utf8Bytes(binding.presentedSecret),
      utf8Bytes(binding.idempotencyKey),
    ])
    return hkdf32(mac, material, SEAL_SALT, SEAL_INFO)
  }

  return Object.freeze({
    keyDigest(presentedSecret: string, idempotencyKey: string): string {
      return toBase64Url(
        mac(digestKey, [lengthPrefixed([utf8Bytes(presentedSecret), utf8Bytes(idempotencyKey)])]),
      )
    },
    async seal(binding: ReceiptBinding, secret: string, random: RandomSource): Promise<string> {
      const nonce = random.bytes(NONCE_BYTES)
      if (nonce.length !== NONCE_BYTES) {
        throw new RangeError(`random source returned ${nonce.length} bytes, expected ${NONCE_BYTES}`)
      }
      // Web Crypto's AES-GCM output is the ciphertext followed by the tag, the layout v1 stores.
      const sealed = await globalThis.crypto.subtle.encrypt(
        {
          name: 'AES-GCM',
          iv: nonce as Uint8Array<ArrayBuffer>,
          additionalData: aad(binding.tokenId) as Uint8Array<ArrayBuffer>,
          tagLength: TAG_BYTES * 8,
        },
        await aesKey(sealKey(binding), 'encrypt'),
        utf8Bytes(secret) as Uint8Array<ArrayBuffer>,
      )
      return VERSION + toBase64Url(concatBytes([nonce, new Uint8Array(sealed)]))
    },
    async open(binding: ReceiptBinding, sealed: string): Promise<Result<string, UnreadableReceipt>> {
      const unreadable = err({ type: 'unreadable_receipt' } as const)
      if (!sealed.startsWith(VERSION)) return unreadable
      const bytes = fromBase64(sealed.slice(VERSION.length))
      if (bytes.length < NONCE_BYTES + TAG_BYTES) return unreadable
      try {
        const opened = await globalThis.crypto.subtle.decrypt(
          {
            name: 'AES-GCM',
            iv: bytes.slice(0, NONCE_BYTES),
            additionalData: aad(binding.tokenId) as Uint8Array<ArrayBuffer>,
            tagLength: TAG_BYTES * 8,
          },
          await aesKey(sealKey(binding), 'decrypt'),
          bytes.slice(NONCE_BYTES),
        )
        return ok(utf8Text(new Uint8Array(opened)))
      } catch {
        // GCM's check failed: another binding, or the data was changed. Not an exception to the caller.
        return unreadable
      }
    },
  })
}
