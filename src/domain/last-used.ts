import type { Token } from './token.js'

/**
 * How many client IPs a token remembers: GitLab's `NUM_IPS_TO_STORE`.
 *
 * @example
 * ```ts
 * import { MAX_LAST_USED_IPS } from 'patkit/store'
 * MAX_LAST_USED_IPS // 5
 * ```
 */
export const MAX_LAST_USED_IPS = 5

/**
 * How long after a recorded use a new IP is not recorded: GitLab's `LAST_USED_IP_TIMEOUT`, one minute.
 *
 * @example
 * ```ts
 * import { LAST_USED_IP_WINDOW_MS } from 'patkit/store'
 * LAST_USED_IP_WINDOW_MS // 60000
 * ```
 */
export const LAST_USED_IP_WINDOW_MS = 60_000

/**
 * A token's usage record: when it was last used (throttled) and its last IPs, oldest first.
 *
 * @example
 * ```ts
 * import type { LastUsed } from 'patkit/store'
 * const used: LastUsed = { lastUsedAt: null, lastUsedIps: [] }
 * ```
 */
export interface LastUsed {
  readonly lastUsedAt: Date | null
  readonly lastUsedIps: readonly string[]
}

/**
 * What {@link nextLastUsed} reads: a {@link LastUsed}, or a `Token` itself (whose `lastUsedIps` is
 * absent when none is recorded), so the hot path reads the token without copying its fields.
 *
 * @example
 * ```ts
 * import type { UsageRecord } from 'patkit/store'
 * const record: UsageRecord = { lastUsedAt: null }
 * ```
 */
export interface UsageRecord {
  readonly lastUsedAt: Date | null
  readonly lastUsedIps?: readonly string[]
}

const NO_IPS: readonly string[] = Object.freeze([])

// The latest stored use, in ms, that a use at `at` still moves; NaN for an invalid `at`. A number, not
// a Date: nextLastUsed runs on every authenticated request.
function cutoffTime(at: Date, throttleMs: number): number {
  return at.getTime() - throttleMs
}

/**
 * The latest stored `lastUsedAt` a use at `at` still moves: a use writes when the token was never
 * used or was last used at or before this instant. `null` for an invalid `at`, which writes nothing.
 * A store that writes with one conditional statement builds its condition from this (the SQL store).
 */
export function lastUsedCutoff(at: Date, throttleMs: number): Date | null {
  const cutoff = cutoffTime(at, throttleMs)
  return Number.isNaN(cutoff) ? null : new Date(cutoff)
}

/** The newest {@link MAX_LAST_USED_IPS} of a list of IPs, oldest first: what a token keeps. */
export function keepNewestIps(ips: readonly string[]): readonly string[] {
  return ips.length > MAX_LAST_USED_IPS ? ips.slice(-MAX_LAST_USED_IPS) : ips
}

/**
 * GitLab's `PersonalAccessTokens::LastUsedService`, as one pure rule: what a use at `at` from `ip`
 * changes, or `null` when it changes nothing (the common case, so no write is needed).
 *
 * - `lastUsedAt` moves to `at` when it is null or at or before `at - throttleMs` (GitLab: 10 minutes).
 * - `ip` (none when `null`) is added when the token was never used, or when it is not among the
 *   stored IPs and the last use is at or before `at - 1 minute`. The list keeps the newest
 *   {@link MAX_LAST_USED_IPS}, oldest first, each IP once.
 *
 * The one definition of the rule: the stores apply it inside their atomic `touchLastUsed` (the SQL
 * store's one-statement write through {@link lastUsedCutoff}), and the authority and the cache apply
 * it to the token they hold to skip a write that would change nothing.
 *
 * @example
 * ```ts
 * import { nextLastUsed } from 'patkit/store'
 *
 * const at = new Date('2026-01-01T12:00:00.000Z')
 * nextLastUsed({ lastUsedAt: null, lastUsedIps: [] }, at, 600_000, '10.0.0.1')
 * // { lastUsedAt: at, lastUsedIps: ['10.0.0.1'] }
 * nextLastUsed({ lastUsedAt: at, lastUsedIps: ['10.0.0.1'] }, at, 600_000, '10.0.0.1') // null
 * ```
 */
export function nextLastUsed(
  current: UsageRecord,
  at: Date,
  throttleMs: number,
  ip: string | null,
): LastUsed | null {
  const cutoff = cutoffTime(at, throttleMs)
  if (Number.isNaN(cutoff)) return null
  const last = current.lastUsedAt === null ? null : current.lastUsedAt.getTime()
  const timestamp = last === null || last <= cutoff
  const ips = current.lastUsedIps ?? NO_IPS
  const known = ip !== null && ips.includes(ip)
  const address = ip !== null && !known && (last === null || last <= at.getTime() - LAST_USED_IP_WINDOW_MS)
  if (!timestamp && !address) return null
  return {
    lastUsedAt: timestamp ? at : current.lastUsedAt,
    lastUsedIps: address && ip !== null ? keepNewestIps([...ips, ip]) : ips,
  }
}

/**
 * The token as a use at `at` from `ip` leaves it (what a store's `touchLastUsed` writes), or `null`
 * when the use changes nothing: {@link nextLastUsed} applied to a token, keeping the store's
 * `no-empty-ips` contract (`lastUsedIps` absent, never `[]`, when no address is recorded). For the
 * holders of a token (the authority after a write, a cache's view) to follow the store without a read.
 */
export function usedToken(token: Token, at: Date, throttleMs: number, ip: string | null): Token | null {
  const next = nextLastUsed(token, at, throttleMs, ip)
  return next === null ? null : withLastUsed(token, next)
}

/** The token with a use `nextLastUsed` gave applied, under the `no-empty-ips` contract. */
export function withLastUsed(token: Token, next: LastUsed): Token {
  const { lastUsedIps: _previous, ...rest } = token
  return next.lastUsedIps.length === 0
    ? { ...rest, lastUsedAt: next.lastUsedAt }
    : { ...rest, lastUsedAt: next.lastUsedAt, lastUsedIps: next.lastUsedIps }
}
