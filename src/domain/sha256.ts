// SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104) in plain JavaScript, synchronous. They are what
// the digester and the receipt keys use on a runtime without `node:crypto` (an edge runtime): Web
// Crypto's `crypto.subtle` only answers with a promise, and a digest is needed synchronously (the
// `Digester` type, the rotation checks). On Node, `node:crypto` is used instead (see node-crypto.ts).
// SHA-256 is additions, rotations and xors over words: no table lookup indexed by data, so its time
// does not depend on the secret.

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
])

const INITIAL = [
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
]

const BLOCK = 64

function compress(state: Uint32Array, w: Uint32Array, block: Uint8Array, offset: number): void {
  for (let t = 0; t < 16; t++) {
    const i = offset + t * 4
    w[t] =
      ((block[i] ?? 0) << 24) | ((block[i + 1] ?? 0) << 16) | ((block[i + 2] ?? 0) << 8) | (block[i + 3] ?? 0)
  }
  for (let t = 16; t < 64; t++) {
    const a = w[t - 15] ?? 0
    const b = w[t - 2] ?? 0
    const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3)
    const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10)
    w[t] = ((w[t - 16] ?? 0) + s0 + (w[t - 7] ?? 0) + s1) | 0
  }
  let a = state[0] ?? 0
  let b = state[1] ?? 0
  let c = state[2] ?? 0
  let d = state[3] ?? 0
  let e = state[4] ?? 0
  let f = state[5] ?? 0
  let g = state[6] ?? 0
  let h = state[7] ?? 0
  for (let t = 0; t < 64; t++) {
    const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))
    const ch = (e & f) ^ (~e & g)
    const t1 = (h + S1 + ch + (K[t] ?? 0) + (w[t] ?? 0)) | 0
    const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))
    const maj = (a & b) ^ (a & c) ^ (b & c)
    const t2 = (S0 + maj) | 0
    h = g
    g = f
    f = e
    e = (d + t1) | 0
    d = c
    c = b
    b = a
    a = (t1 + t2) | 0
  }
  state[0] = ((state[0] ?? 0) + a) | 0
  state[1] = ((state[1] ?? 0) + b) | 0
  state[2] = ((state[2] ?? 0) + c) | 0
  state[3] = ((state[3] ?? 0) + d) | 0
  state[4] = ((state[4] ?? 0) + e) | 0
  state[5] = ((state[5] ?? 0) + f) | 0
  state[6] = ((state[6] ?? 0) + g) | 0
  state[7] = ((state[7] ?? 0) + h) | 0
}

/** The SHA-256 of the parts, one after the other. */
export function sha256(parts: readonly Uint8Array[]): Uint8Array {
  let length = 0
  for (const part of parts) length += part.length
  // The message, a 0x80 byte, zeros, and its bit length (64-bit big-endian) fill whole blocks.
  const padded = new Uint8Array(Math.ceil((length + 9) / BLOCK) * BLOCK)
  let offset = 0
  for (const part of parts) {
    padded.set(part, offset)
    offset += part.length
  }
  padded[length] = 0x80
  const view = new DataView(padded.buffer)
  view.setUint32(padded.length - 8, Math.floor(length / 0x20000000))
  view.setUint32(padded.length - 4, (length * 8) >>> 0)
  const state = new Uint32Array(INITIAL)
  const w = new Uint32Array(64)
  for (let block = 0; block < padded.length; block += BLOCK) compress(state, w, padded, block)
  const out = new Uint8Array(32)
  const outView = new DataView(out.buffer)
  for (let i = 0; i < 8; i++) outView.setUint32(i * 4, state[i] ?? 0)
  return out
}

/** HMAC-SHA-256 under one key: the key's pads are computed once, so each call hashes only. */
export function hmacSha256(key: Uint8Array): (parts: readonly Uint8Array[]) => Uint8Array {
  const block = new Uint8Array(BLOCK)
  block.set(key.length > BLOCK ? sha256([key]) : key)
  const inner = block.map((byte) => byte ^ 0x36)
  const outer = block.map((byte) => byte ^ 0x5c)
  return (parts) => sha256([outer, sha256([inner, ...parts])])
}
