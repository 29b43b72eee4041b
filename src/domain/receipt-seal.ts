import { createCipheriv, createDecipheriv, createHmac, hkdfSync } from 'node:crypto'
import { err, ok, type Result } from 'neverthrow'
import type { RandomSource } from './random.js'

/**
 * What a sealed receipt is bound to: the secret the rotating request presented, its
 * `Idempotency-Key`, and the id of the rotated token.
 *
 * @example
 * ```ts
 * import type { ReceiptBinding } from './receipt-seal.js'
 * const binding: ReceiptBinding = { presentedSecret: 'glpat-...', idempotencyKey: 'k-1', tokenId: 7 }
 * ```
 */
export interface ReceiptBinding {
  readonly presentedSecret: string
  readonly idempotencyKey: string
  readonly tokenId: number
}

/**
 * A sealed text that does not open: another pepper, secret, key or token, or tampered data.
 *
 * @example
 * ```ts
 * import type { UnreadableReceipt } from './receipt-seal.js'
 * const e: UnreadableReceipt = { type: 'unreadable_receipt' }
 * ```
 */
export interface UnreadableReceipt {
  readonly type: 'unreadable_receipt'
}

/**
 * Seals a successor's secret for a rotation receipt, and finds receipts by a digest of their key.
 *
 * @example
 * ```ts
 * import { seededRandom } from 'patkit/fake'
 * import { createReceiptSealer, type ReceiptSealer } from './receipt-seal.js'
 * const sealer: ReceiptSealer = createReceiptSealer('pepper')
 * ```
 */
export interface ReceiptSealer {
  /** HMAC-SHA-256 under a pepper-derived key of the presented secret and the key (base64url). */
  keyDigest(presentedSecret: string, idempotencyKey: string): string
  /** `v1.` + base64url(nonce, AES-256-GCM ciphertext, tag). */
  seal(binding: ReceiptBinding, secret: string, random: RandomSource): string
  open(binding: ReceiptBinding, sealed: string): Result<string, UnreadableReceipt>
}

const VERSION = 'v1.'
const NONCE_BYTES = 12
const TAG_BYTES = 16
const SEAL_SALT = Buffer.from('patkit rotation receipt v1', 'utf8')
const SEAL_INFO = Buffer.from('aes-256-gcm seal key', 'utf8')
const DIGEST_INFO = Buffer.from('patkit rotation receipt v1: idempotency key digest', 'utf8')

// Each part is prefixed with its byte length, so no two different tuples encode alike ('ab','c' vs 'a','bc').
function lengthPrefixed(parts: readonly Uint8Array[]): Buffer {
  const chunks: Buffer[] = []
  for (const part of parts) {
    const length = Buffer.alloc(4)
    length.writeUInt32BE(part.length)
    chunks.push(length, Buffer.from(part))
  }
  return Buffer.concat(chunks)
}

const utf8 = (text: string): Buffer => Buffer.from(text, 'utf8')

function aad(tokenId: number): Buffer {
  return utf8(`patkit rotation receipt v1 for token ${tokenId}`)
}

/**
 * The sealer of one pepper. The key that seals a successor's secret is derived with HKDF-SHA-256 from
 * the pepper, the presented (old) token's plaintext secret and the `Idempotency-Key` value: the store
 * holds none of them (only digests), so a database dump alone never opens a receipt, and neither does
 * the pepper without the old secret and the key. Every seal draws a fresh 96-bit nonce from the
 * injected random source; the rotated token's id is authenticated data, so a receipt copied onto
 * another token does not open.
 *
 * @example
 * ```ts
 * import { cryptoRandom } from 'patkit'
 * import { createReceiptSealer } from './receipt-seal.js'
 * declare const presentedSecret: string
 * declare const idempotencyKey: string
 * declare const successorSecret: string
 *
 * const sealer = createReceiptSealer(process.env.PATKIT_PEPPER!)
 * const binding = { presentedSecret, idempotencyKey, tokenId: 7 }
 * const sealed = sealer.seal(binding, successorSecret, cryptoRandom)
 * sealer.open(binding, sealed) // ok(successorSecret)
 * ```
 */
export function createReceiptSealer(pepper: string | Uint8Array): ReceiptSealer {
  if (pepper.length === 0) throw new RangeError('pepper must not be empty')
  const pepperBytes = typeof pepper === 'string' ? utf8(pepper) : Buffer.from(pepper)
  const digestKey = Buffer.from(hkdfSync('sha256', pepperBytes, Buffer.alloc(0), DIGEST_INFO, 32))

  function sealKey(binding: ReceiptBinding): Buffer {
    const material = lengthPrefixed([
      pepperBytes,
      utf8(binding.presentedSecret),
      utf8(binding.idempotencyKey),
    ])
    return Buffer.from(hkdfSync('sha256', material, SEAL_SALT, SEAL_INFO, 32))
  }

  return Object.freeze({
    keyDigest(presentedSecret: string, idempotencyKey: string): string {
      return createHmac('sha256', digestKey)
        .update(lengthPrefixed([utf8(presentedSecret), utf8(idempotencyKey)]))
        .digest('base64url')
    },
    seal(binding: ReceiptBinding, secret: string, random: RandomSource): string {
      const nonce = random.bytes(NONCE_BYTES)
      if (nonce.length !== NONCE_BYTES) {
        throw new RangeError(`random source returned ${nonce.length} bytes, expected ${NONCE_BYTES}`)
      }
      const cipher = createCipheriv('aes-256-gcm', sealKey(binding), nonce, { authTagLength: TAG_BYTES })
      cipher.setAAD(aad(binding.tokenId))
      const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()])
      return VERSION + Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64url')
    },
    open(binding: ReceiptBinding, sealed: string): Result<string, UnreadableReceipt> {
      const unreadable = err({ type: 'unreadable_receipt' } as const)
      if (!sealed.startsWith(VERSION)) return unreadable
      const bytes = Buffer.from(sealed.slice(VERSION.length), 'base64url')
      if (bytes.length < NONCE_BYTES + TAG_BYTES) return unreadable
      const nonce = bytes.subarray(0, NONCE_BYTES)
      const tag = bytes.subarray(bytes.length - TAG_BYTES)
      const body = bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)
      try {
        const decipher = createDecipheriv('aes-256-gcm', sealKey(binding), nonce, {
          authTagLength: TAG_BYTES,
        })
        decipher.setAAD(aad(binding.tokenId))
        decipher.setAuthTag(tag)
        return ok(Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8'))
      } catch {
        // GCM's check failed: another binding, or the data was changed. Not an exception to the caller.
        return unreadable
      }
    },
  })
}
