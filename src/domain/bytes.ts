// Byte helpers that run on every JavaScript runtime patkit supports: Node, and edge runtimes (Next.js
// `runtime = 'edge'`, Cloudflare-style workers) that have no `Buffer`. The core reaches only these.

const encoder = new TextEncoder()
const decoder = new TextDecoder()

const BASE64URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

// Both alphabets decode: `+`/`-` are 62 and `/`/`_` are 63, as Node's decoder reads them.
const SEXTETS = (() => {
  const table = new Int8Array(128).fill(-1)
  for (let i = 0; i < 64; i++) table[BASE64URL_ALPHABET.charCodeAt(i)] = i
  table[0x2b] = 62
  table[0x2f] = 63
  return table
})()

/** A string's UTF-8 bytes. */
export function utf8Bytes(text: string): Uint8Array {
  return encoder.encode(text)
}

/** UTF-8 bytes as a string (malformed sequences become U+FFFD). */
export function utf8Text(bytes: Uint8Array): string {
  return decoder.decode(bytes)
}

/** The parts one after the other, in one new array. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let size = 0
  for (const part of parts) size += part.length
  const out = new Uint8Array(size)
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

const digit = (sextet: number): string => BASE64URL_ALPHABET.charAt(sextet)

/** Bytes as unpadded base64url (RFC 4648 §5), what Node's `toString('base64url')` writes. */
export function toBase64Url(bytes: Uint8Array): string {
  let out = ''
  let i = 0
  for (; i + 2 < bytes.length; i += 3) {
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0)
    out += digit(n >>> 18) + digit((n >>> 12) & 63) + digit((n >>> 6) & 63) + digit(n & 63)
  }
  const rest = bytes.length - i
  if (rest > 0) {
    const n = ((bytes[i] ?? 0) << 16) | (rest === 2 ? (bytes[i + 1] ?? 0) << 8 : 0)
    out += digit(n >>> 18) + digit((n >>> 12) & 63)
    if (rest === 2) out += digit((n >>> 6) & 63)
  }
  return out
}

/**
 * Decodes base64 or base64url leniently, as Node's `Buffer.from(text, 'base64')` and Ruby's
 * `Base64.decode64` do: characters outside both alphabets are skipped, the first `=` ends the data,
 * and bits that do not fill a byte are dropped. Never fails.
 */
export function fromBase64(text: string): Uint8Array {
  const out = new Uint8Array(Math.floor((text.length * 3) / 4))
  let size = 0
  let bits = 0
  let held = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code === 0x3d) break
    const sextet = code < 128 ? (SEXTETS[code] ?? -1) : -1
    if (sextet === -1) continue
    bits = ((bits << 6) | sextet) & 0xffffff
    held += 6
    if (held >= 8) {
      held -= 8
      out[size++] = (bits >>> held) & 0xff
    }
  }
  return out.subarray(0, size)
}
