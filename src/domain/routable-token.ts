/**
 * GitLab's routable token format (lib/authn/token_field/generator/routable_token.rb), the format of
 * every personal access token GitLab makes since 18.x:
 *
 * `<prefix><base64url(16 random bytes + payload + one byte: payload length)>.<version>.<len><crc>`
 *
 * where the payload is the routing keys, sorted, as `k:v` lines (integers in base 36; for a personal
 * access token `o:<organization id>` and `u:<user id>`; a string user id (`userIdType: 'string'`) is
 * left out of the payload, see {@link routableSecret}), `version` is `01`, `len` the base64 part's
 * length in base 36 (2 characters), and `crc` the CRC-32 of everything before it, in base 36
 * (7 characters). The CRC lets a malformed or mistyped token be refused without a lookup.
 */

import { fromBase64, toBase64Url, utf8Bytes, utf8Text } from './bytes.js'
import type { UserId } from './user-id.js'

/** Random bytes in a routable token: GitLab's 16 (128 bits). */
export const ROUTABLE_RANDOM_BYTES = 16

const VERSION = '01'
// The organization GitLab puts tokens in when there is no other (Organizations::DEFAULT_ORGANIZATION_ID).
const DEFAULT_ORGANIZATION_ID = 1
const DOT = 0x2e
const SHAPE = /^(.*)\.([0-9a-z]{2})\.([0-9a-z]{2})([0-9a-z]{7})$/
const BASE64URL = /^[A-Za-z0-9_-]+$/
const PAYLOAD = /^(c:\w+\n)?(g:\w+\n)?o:\w+(\np:\w+)?(\nu:\w+)?(\nt:\w+)?$/

const CRC_TABLE = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

/** CRC-32 (the zlib / ISO-HDLC one Ruby's `Zlib.crc32` computes) of a string's UTF-8 bytes. */
export function crc32(text: string): number {
  let crc = 0xffffffff
  // Every authentication of a routable token runs this: ASCII (every valid token) is read from the
  // string as is, and only other text is encoded to UTF-8 first.
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code >= 0x80) return crc32Bytes(crc, utf8Bytes(text.slice(i)))
    crc = (CRC_TABLE[(crc ^ code) & 0xff] ?? 0) ^ (crc >>> 8)
  }
  return (crc ^ 0xffffffff) >>> 0
}

function crc32Bytes(start: number, bytes: Uint8Array): number {
  let crc = start
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

/**
 * What a personal access token routes by: its owner, and the organization (GitLab's default, 1, unless
 * told).
 */
interface TokenRouting {
  readonly userId: UserId
  readonly organizationId?: number
}

/**
 * A routable personal access token secret from 16 random bytes, as GitLab builds one.
 *
 * An integer user id is the `u:` routing key in base 36, as GitLab writes it. A string user id is
 * left out: GitLab requires only `o:`, its payload is at most 159 bytes and every value one word
 * (`[A-Za-z0-9_]+`), so a UUID's hyphens or a 255-character id have no faithful place in it, and
 * patkit never reads `u:` back (a token's owner is the one stored with it).
 */
export function routableSecret(randomBytes: Uint8Array, prefix: string, routing: TokenRouting): string {
  if (randomBytes.length !== ROUTABLE_RANDOM_BYTES) {
    throw new RangeError(
      `a routable token needs ${ROUTABLE_RANDOM_BYTES} random bytes, got ${randomBytes.length}`,
    )
  }
  const organization = `o:${(routing.organizationId ?? DEFAULT_ORGANIZATION_ID).toString(36)}`
  const payload =
    typeof routing.userId === 'number' ? `${organization}\nu:${routing.userId.toString(36)}` : organization
  const payloadBytes = utf8Bytes(payload)
  const encodable = new Uint8Array(ROUTABLE_RANDOM_BYTES + payloadBytes.length + 1)
  encodable.set(randomBytes, 0)
  encodable.set(payloadBytes, ROUTABLE_RANDOM_BYTES)
  encodable[encodable.length - 1] = payloadBytes.length
  const body = toBase64Url(encodable)
  const encoded = `${prefix}${body}.${VERSION}.${body.length.toString(36).padStart(2, '0')}`
  return `${encoded}${crc32(encoded).toString(36).padStart(7, '0')}`
}

/**
 * How a presented secret reads as a routable token: `valid` (shape, lengths, payload and CRC all
 * right), `malformed` (it has a routable token's tail, `.vv.llccccccc`, but something is wrong: a
 * typo, a truncation, a forgery), or `other` (not routable at all: a legacy or seeded secret, which is
 * looked up as usual).
 */
export function checkRoutableSecret(secret: string, prefix: string): 'valid' | 'malformed' | 'other' {
  // Every authentication asks: a secret without the two dots of the tail (`.vv.` before the last
  // nine characters) is not routable, decided without running the regex.
  const n = secret.length
  if (n < 14 || secret.charCodeAt(n - 10) !== DOT || secret.charCodeAt(n - 13) !== DOT) return 'other'
  const shape = SHAPE.exec(secret)
  if (shape === null) return 'other'
  const [, head = '', version, length = '', crc = ''] = shape
  if (version !== VERSION || !head.startsWith(prefix)) return 'malformed'
  const encoded = secret.slice(0, secret.length - crc.length)
  if (crc32(encoded).toString(36).padStart(7, '0') !== crc) return 'malformed'
  const body = head.slice(prefix.length)
  if (!BASE64URL.test(body) || body.length.toString(36).padStart(2, '0') !== length) return 'malformed'
  const bytes = fromBase64(body)
  const size = bytes[bytes.length - 1] ?? -1
  if (bytes.length !== ROUTABLE_RANDOM_BYTES + size + 1) return 'malformed'
  const payload = utf8Text(bytes.subarray(ROUTABLE_RANDOM_BYTES, bytes.length - 1))
  return PAYLOAD.test(payload) ? 'valid' : 'malformed'
}
