/**
 * The data every benchmark uses: one deterministic population of N tokens, the same for the memory
 * store, PostgreSQL and SQLite, so the suites measure the same thing. Everything is a pure function
 * of the token index `i` (1..N); secrets are known, so sampled tokens can authenticate.
 */
import { createHmac, createSecretKey } from 'node:crypto'

/** The pepper of every benchmark authority. */
export const PEPPER = 'patkit-benchmark-pepper'
/** The authority's clock: fixed, so `state` and the `last_used_at` throttle are reproducible. */
export const NOW = new Date('2026-01-15T12:00:00.000Z')
/** `utcDay(NOW)`: a token expiring on this day or earlier is expired. */
export const TODAY = '2026-01-15'
/** The administrator. */
export const ROOT = Object.freeze({ id: 1, username: 'root', admin: true, blocked: false })
/** The user whose own list is measured: always {@link USER_TOKENS} tokens, whatever N is. */
export const ALICE = Object.freeze({ id: 2, username: 'alice', admin: false, blocked: false })
/** How many tokens alice has. */
export const USER_TOKENS = 20
/** The term of the admin's filtered list: one name in eight contains it. */
export const SEARCH = 'deploy'
/** The kinds of token names. */
export const KINDS = ['deploy', 'ci', 'backup', 'release', 'monitor', 'k8s', 'registry', 'docs']
/** The expiry days of tokens that are not expired (and do expire). */
export const FUTURE_DAYS = [
  '2026-03-01',
  '2026-06-30',
  '2026-09-15',
  '2026-12-31',
  '2027-01-15',
  '2027-06-01',
]
const CREATED_BASE = Date.parse('2024-01-01T00:00:00.000Z')

/** Other users: about ten tokens each. @param {number} n */
export function otherUserCount(n) {
  return Math.max(1, Math.floor(n / 10))
}

/** Every `stride`-th token is alice's, for the first {@link USER_TOKENS} strides. @param {number} n */
function aliceStride(n) {
  return Math.max(1, Math.floor(n / USER_TOKENS))
}

/** The secret of token `i`: `glpat-` and 27 characters, like a real one. @param {number} i */
export function secretOf(i) {
  return `glpat-bench${String(i).padStart(22, '0')}`
}

/**
 * The digester of the benchmark pepper, written out as patkit's `createDigester` is (the floor of
 * target 1 uses the same three calls).
 */
export function benchDigester() {
  const key = createSecretKey(Buffer.from(PEPPER, 'utf8'))
  return (/** @type {string} */ secret) =>
    createHmac('sha256', key).update(secret, 'utf8').digest('base64url')
}

/**
 * The columns of token `i` as plain values (instants as epoch ms), shared by every population path.
 * @param {number} i
 * @param {number} n
 */
export function tokenFields(i, n) {
  const stride = aliceStride(n)
  const isAlice = i % stride === 0 && i / stride <= USER_TOKENS
  const createdAt = CREATED_BASE + i * 1000
  return {
    id: i,
    userId: isAlice ? ALICE.id : 3 + (i % otherUserCount(n)),
    // The kind shifts every 64 tokens, so each kind has revoked and expired tokens too.
    name: `${KINDS[((i % 8) + Math.floor(i / 64)) % 8]} token ${i}`,
    scopes: i % 4 === 0 ? ['read_api'] : ['api'],
    createdAt,
    lastUsedAt: i % 3 === 0 ? null : createdAt + 3_600_000,
    // 1 in 20 expired, 1 in 10 never expires, the rest on one of a few future days.
    expiresAt: i % 20 === 11 ? '2025-12-31' : i % 10 === 3 ? null : FUTURE_DAYS[i % FUTURE_DAYS.length],
    revoked: i % 20 === 7,
    impersonation: i % 97 === 0,
  }
}

/** Whether token `i` can authenticate at {@link NOW}. @param {number} i */
export function isActiveIndex(i) {
  return i % 20 !== 7 && i % 20 !== 11
}

/**
 * `count` active token indexes spread evenly over 1..n, the ones whose secrets the benchmarks present.
 * @param {number} n
 * @param {number} count
 */
export function sampleIndexes(n, count) {
  const step = Math.max(1, Math.floor(n / count))
  /** @type {number[]} */ const out = []
  for (let k = 0; k < count; k++) {
    let i = 1 + k * step
    while (!isActiveIndex(i) || i % 4 === 0) i++
    if (i <= n) out.push(i)
  }
  return out
}

/**
 * Token `i` as patkit's `Token`, with a real digest.
 * @param {number} i
 * @param {number} n
 * @param {(secret: string) => string} digest
 * @returns {import('patkit').Token}
 */
export function tokenAt(i, n, digest) {
  const f = tokenFields(i, n)
  return {
    id: f.id,
    userId: f.userId,
    name: f.name,
    description: null,
    scopes: /** @type {import('patkit').Scope[]} */ (f.scopes),
    createdAt: new Date(f.createdAt),
    lastUsedAt: f.lastUsedAt === null ? null : new Date(f.lastUsedAt),
    expiresAt: /** @type {import('patkit').CalendarDate | null} */ (f.expiresAt ?? null),
    revoked: f.revoked,
    impersonation: f.impersonation,
    previousId: null,
    familyId: f.id,
    digest: digest(secretOf(i)),
  }
}

/** Every user of a population of n tokens. @param {number} n */
export function usersOf(n) {
  const users = [ROOT, ALICE]
  for (let u = 0; u < otherUserCount(n); u++) {
    users.push({ id: 3 + u, username: `user${3 + u}`, admin: false, blocked: false })
  }
  return users
}
