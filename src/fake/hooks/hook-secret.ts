import { createCipheriv, createDecipheriv } from 'node:crypto'
import { err, ok, type Result } from 'neverthrow'
import { concatBytes, fromBase64, toBase64Url, utf8Bytes } from '../../domain/bytes.js'
import type { RandomSource } from '../../domain/random.js'

/**
 * A sealed hook token that does not open: sealed under another key, or altered.
 *
 * @example
 * ```ts
 * import type { UnreadableHookSecret } from 'patkit/fake'
 * const e: UnreadableHookSecret = { type: 'unreadable_hook_secret' }
 * ```
 */
export interface UnreadableHookSecret {
  readonly type: 'unreadable_hook_secret'
}

/**
 * The length of a hook secret key in bytes: AES-256's.
 *
 * @example
 * ```ts
 * import { HOOK_SECRET_KEY_BYTES } from 'patkit/fake'
 * HOOK_SECRET_KEY_BYTES // 32
 * ```
 */
export const HOOK_SECRET_KEY_BYTES = 32

const VERSION = 'v1.'
const NONCE_BYTES = 12
const TAG_BYTES = 16
// Binds a sealed value to its purpose: a receipt or another AES-GCM text under the same key never opens here.
const AAD = utf8Bytes('patkit hook secret v1')

function checkKey(key: Uint8Array): void {
  if (key.length !== HOOK_SECRET_KEY_BYTES) {
    throw new RangeError(`hook secret key: must be ${HOOK_SECRET_KEY_BYTES} bytes, got ${key.length}`)
  }
}

/**
 * Seals a webhook's secret token (GitLab's `token`, sent as `X-Gitlab-Token`) under the fake's key:
 * `v1.` and base64url of a fresh 12-byte nonce, the AES-256-GCM ciphertext and its tag. The store
 * keeps only this text (`Hook.sealedToken`).
 *
 * @throws {RangeError} when the key is not 32 bytes (a programming error).
 * @example
 * ```ts
 * import { cryptoRandom } from 'patkit/authority'
 * import { openHookSecret, sealHookSecret } from 'patkit/fake'
 *
 * const key = cryptoRandom.bytes(32)
 * const sealed = sealHookSecret(key, 's3cret', cryptoRandom)
 * openHookSecret(key, sealed) // ok('s3cret')
 * ```
 */
export function sealHookSecret(key: Uint8Array, token: string, random: RandomSource): string {
  checkKey(key)
  const nonce = random.bytes(NONCE_BYTES)
  const cipher = createCipheriv('aes-256-gcm', key, nonce)
  cipher.setAAD(AAD)
  const body = concatBytes([cipher.update(utf8Bytes(token)), cipher.final()])
  return VERSION + toBase64Url(concatBytes([nonce, body, cipher.getAuthTag()]))
}

/**
 * Opens a token {@link sealHookSecret} sealed: `unreadable_hook_secret` when it was sealed under
 * another key (an earlier run's random key) or altered.
 *
 * @throws {RangeError} when the key is not 32 bytes.
 * @example
 * ```ts
 * import { openHookSecret } from 'patkit/fake'
 * declare const key: Uint8Array
 * const opened = openHookSecret(key, 'v1.AAAA')
 * opened.isErr() // true
 * ```
 */
export function openHookSecret(key: Uint8Array, sealed: string): Result<string, UnreadableHookSecret> {
  checkKey(key)
  const unreadable = err({ type: 'unreadable_hook_secret' } as const)
  if (!sealed.startsWith(VERSION)) return unreadable
  let bytes: Uint8Array
  try {
    bytes = fromBase64(sealed.slice(VERSION.length))
  } catch {
    return unreadable
  }
  if (bytes.length < NONCE_BYTES + TAG_BYTES) return unreadable
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, NONCE_BYTES))
    decipher.setAAD(AAD)
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES))
    const plain = concatBytes([
      decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)),
      decipher.final(),
    ])
    return ok(new TextDecoder('utf-8', { fatal: true }).decode(plain))
  } catch {
    return unreadable
  }
}

const HEX_KEY = /^[0-9a-fA-F]{64}$/

/**
 * Reads a hook secret key as `patkit serve --hook-secret-key` takes it: 64 hex digits, or base64
 * (standard or URL-safe) of 32 bytes.
 *
 * @example
 * ```ts
 * import { parseHookSecretKey } from 'patkit/fake'
 * parseHookSecretKey('00'.repeat(32)).isOk() // true
 * parseHookSecretKey('short').isErr() // true
 * ```
 */
export function parseHookSecretKey(text: string): Result<Uint8Array, string> {
  const trimmed = text.trim()
  if (HEX_KEY.test(trimmed)) return ok(Uint8Array.from(Buffer.from(trimmed, 'hex')))
  let bytes: Uint8Array
  try {
    bytes = /^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed) ? fromBase64(trimmed) : new Uint8Array()
  } catch {
    bytes = new Uint8Array()
  }
  return bytes.length === HOOK_SECRET_KEY_BYTES
    ? ok(bytes)
    : err(`must be ${HOOK_SECRET_KEY_BYTES} bytes as 64 hex digits or base64`)
}
