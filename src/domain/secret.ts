import { toBase64Url, utf8Bytes } from './bytes.js'
import { type NodeCrypto, nodeCrypto } from './node-crypto.js'
import { hmacSha256 } from './sha256.js'

/** GitLab's personal access token prefix. */
export const DEFAULT_TOKEN_PREFIX = 'glpat-'

/**
 * Turns a secret into its stored form.
 *
 * @example
 * ```ts
 * import type { Digester } from 'patkit/store'
 * declare const digest: Digester
 * digest('glpat-abc') // base64url HMAC-SHA-256
 * ```
 */
export type Digester = (secret: string) => string

/**
 * Builds the digester for one pepper: HMAC-SHA-256 keyed by the pepper, base64url-encoded. The key
 * is prepared once so the authentication hot path only hashes. On Node the HMAC is computed with
 * `node:crypto` (two one-shot SHA-256 calls over the key's pads where Node has `crypto.hash`, from
 * 20.12; a `createHmac` before); on a runtime without it (an edge runtime) the same HMAC is computed
 * in JavaScript, synchronously, so a digest is the same string everywhere.
 *
 * @example
 * ```ts
 * import { createDigester } from 'patkit/store'
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
 */
export function digesterWith(pepper: string | Uint8Array, crypto: NodeCrypto | undefined): Digester {
  if (pepper.length === 0) throw new RangeError('pepper must not be empty')
  const keyBytes = typeof pepper === 'string' ? utf8Bytes(pepper) : pepper
  if (crypto !== undefined) {
    const key = crypto.createSecretKey(keyBytes)
    const hmac: Digester = (secret) =>
      crypto.createHmac('sha256', key).update(secret, 'utf8').digest('base64url')
    return crypto.hash === undefined ? hmac : padsDigester(keyBytes, crypto.hash, hmac)
  }
  const mac = hmacSha256(keyBytes)
  return (secret) => toBase64Url(mac([utf8Bytes(secret)]))
}

type OneShotHash = NonNullable<NodeCrypto['hash']>

/** UTF-8 bytes of a secret the pads digester hashes in place; a longer one goes to `createHmac`. */
const PADDED_SECRET_BYTES = 1024
const BLOCK_BYTES = 64
const SHA256_BYTES = 32
const encoder = new TextEncoder()

/**
 * HMAC-SHA-256 (RFC 2104) as two one-shot SHA-256 calls over the key's pads, computed once:
 * `H((K ^ opad) || H((K ^ ipad) || secret))`. A `createHmac` object per call costs about twice the
 * whole of it, and authentication computes one per request (docs/benchmarks.md, target 1). The bytes
 * are the same as `createHmac`'s (a property test compares them). The secret is encoded into a
 * buffer kept with the pads and wiped after each hash, so no copy of it stays behind.
 */
function padsDigester(keyBytes: Uint8Array, hash: OneShotHash, tooLong: Digester): Digester {
  const key = new Uint8Array(BLOCK_BYTES)
  // A key longer than a block is hashed first, as RFC 2104 says.
  key.set(keyBytes.length > BLOCK_BYTES ? hash('sha256', new Uint8Array(keyBytes), 'buffer') : keyBytes)
  const inner = new Uint8Array(BLOCK_BYTES + PADDED_SECRET_BYTES)
  const outer = new Uint8Array(BLOCK_BYTES + SHA256_BYTES)
  for (let i = 0; i < BLOCK_BYTES; i++) {
    inner[i] = (key[i] ?? 0) ^ 0x36
    outer[i] = (key[i] ?? 0) ^ 0x5c
  }
  const tail = inner.subarray(BLOCK_BYTES)
  return (secret) => {
    const { read, written } = encoder.encodeInto(secret, tail)
    if (read < secret.length) {
      inner.fill(0, BLOCK_BYTES)
      return tooLong(secret)
    }
    const innerHash = hash('sha256', inner.subarray(0, BLOCK_BYTES + written), 'binary')
    inner.fill(0, BLOCK_BYTES, BLOCK_BYTES + written)
    // 'binary' (latin1) text holds one byte per character: the 32 bytes of the inner hash.
    for (let i = 0; i < SHA256_BYTES; i++) outer[BLOCK_BYTES + i] = innerHash.charCodeAt(i)
    return hash('sha256', outer, 'base64url')
  }
}
