import { toBase64Url, utf8Bytes } from './bytes.js'
import { type NodeCrypto, nodeCrypto } from './node-crypto.js'
import type { RandomSource } from './random.js'
import { hmacSha256 } from './sha256.js'

/** GitLab's personal access token prefix. */
export const DEFAULT_TOKEN_PREFIX = 'glpat-'

/** Random bytes per secret: 160 bits, above the 128-bit floor. */
export const SECRET_RANDOM_BYTES = 20

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
// 62^27 > 2^160, so 27 characters hold any 20-byte value and the encoding is injective.
const ENCODED_LENGTH = 27

/**
 * Encodes bytes as a fixed-width base62 string (big-endian, left-padded with `0`).
 *
 * @example
 * ```ts
 * import { encodeBase62 } from './secret.js'
 * encodeBase62(new Uint8Array([0, 61]), 2) // '0z'
 * ```
 */
export function encodeBase62(bytes: Uint8Array, width: number): string {
  let value = 0n
  for (const byte of bytes) value = (value << 8n) | BigInt(byte)
  let out = ''
  while (value > 0n) {
    out = BASE62[Number(value % 62n)] + out
    value /= 62n
  }
  if (out.length > width) throw new RangeError(`value needs ${out.length} base62 digits, width is ${width}`)
  return out.padStart(width, '0')
}

/**
 * A fresh secret: `prefix` + 27 base62 characters carrying 160 bits from `random`.
 *
 * @example
 * ```ts
 * import { cryptoRandom } from 'patkit'
 * import { generateSecret } from './secret.js'
 * generateSecret(cryptoRandom) // 'glpat-3kTq...'
 * ```
 */
export function generateSecret(random: RandomSource, prefix: string = DEFAULT_TOKEN_PREFIX): string {
  const bytes = random.bytes(SECRET_RANDOM_BYTES)
  if (bytes.length !== SECRET_RANDOM_BYTES) {
    throw new RangeError(`random source returned ${bytes.length} bytes, expected ${SECRET_RANDOM_BYTES}`)
  }
  return prefix + encodeBase62(bytes, ENCODED_LENGTH)
}

/**
 * Turns a secret into its stored form.
 *
 * @example
 * ```ts
 * import type { Digester } from 'patkit'
 * declare const digest: Digester
 * digest('glpat-abc') // base64url HMAC-SHA-256
 * ```
 */
export type Digester = (secret: string) => string

/**
 * Builds the digester for one pepper: HMAC-SHA-256 keyed by the pepper, base64url-encoded. The key
 * is prepared once so the authentication hot path only hashes. On Node the HMAC is `node:crypto`'s;
 * on a runtime without it (an edge runtime) the same HMAC is computed in JavaScript, synchronously,
 * so a digest is the same string everywhere.
 *
 * @example
 * ```ts
 * import { createDigester } from 'patkit'
 * const digest = createDigester('a long random pepper from your secret store')
 * digest('glpat-abc') === digest('glpat-abc') // true
 * ```
 */
export function createDigester(pepper: string | Uint8Array): Digester {
  return digesterWith(pepper, nodeCrypto)
}

/**
 * {@link createDigester} on a given backend: `node:crypto`, or undefined for the portable HMAC (what
 * an edge runtime gets). Tests compare the two.
 *
 * @example
 * ```ts
 * import { digesterWith } from './secret.js'
 * digesterWith('pepper', undefined)('glpat-abc') // the same string createDigester('pepper') gives
 * ```
 */
export function digesterWith(pepper: string | Uint8Array, crypto: NodeCrypto | undefined): Digester {
  if (pepper.length === 0) throw new RangeError('pepper must not be empty')
  const keyBytes = typeof pepper === 'string' ? utf8Bytes(pepper) : pepper
  if (crypto !== undefined) {
    const key = crypto.createSecretKey(keyBytes)
    return (secret) => crypto.createHmac('sha256', key).update(secret, 'utf8').digest('base64url')
  }
  const mac = hmacSha256(keyBytes)
  return (secret) => toBase64Url(mac([utf8Bytes(secret)]))
}
