import type { CalendarDate } from '../domain/calendar.js'
import type { GranularScope } from '../domain/granular-scope.js'
import type { Token } from '../domain/token.js'
import type { UserId } from '../domain/user-id.js'
import type { InstantReader } from '../query/instants.js'

/**
 * How the memory store keeps one token. It differs from {@link Token} in one way: instants are epoch
 * milliseconds, not `Date` objects. A `Date` costs about 110 bytes of heap, a number about 16, and at
 * a million tokens that difference is what keeps the store under its memory budget. Rows never leave
 * the store: every read materializes a fresh {@link Token}, so no caller can hold an object the store
 * later changes, nor change one the store holds.
 */
export interface StoredRow {
  readonly id: number
  readonly userId: UserId
  readonly name: string
  readonly description: string | null
  readonly scopes: readonly string[]
  readonly createdAt: number
  readonly lastUsedAt: number | null
  readonly lastUsedIps: readonly string[]
  readonly expiresAt: CalendarDate | null
  readonly revoked: boolean
  readonly impersonation: boolean
  readonly previousId: number | null
  readonly familyId: number
  readonly digest: string
  /** `null` on a legacy token (most rows: one slot, no array). */
  readonly granularScopes: readonly GranularScope[] | null
}

/**
 * Shares one frozen array per distinct scope list, so a million tokens with `['api']` hold one array
 * between them instead of a million. Handing the shared array out is safe because it is frozen.
 */
export function scopeInterner(): (scopes: readonly string[]) => readonly string[] {
  const known = new Map<string, readonly string[]>()
  return (scopes) => {
    // Scope names contain no comma, so the joined list identifies the list exactly (order included).
    const key = scopes.join(',')
    const found = known.get(key)
    if (found !== undefined) return found
    const frozen = Object.freeze([...scopes])
    known.set(key, frozen)
    return frozen
  }
}

/**
 * The row for a token. Every field is copied, none shared with the caller's object except strings
 * (immutable) and the interned scopes.
 */
export function toRow(token: Token, intern: (scopes: readonly string[]) => readonly string[]): StoredRow {
  // One literal in one property order keeps every row on one hidden class.
  return Object.freeze({
    id: token.id,
    userId: token.userId,
    name: flat(token.name),
    description: token.description === null ? null : flat(token.description),
    scopes: intern(token.scopes),
    createdAt: token.createdAt.getTime(),
    lastUsedAt: token.lastUsedAt === null ? null : token.lastUsedAt.getTime(),
    lastUsedIps: ipList(token.lastUsedIps),
    expiresAt: token.expiresAt,
    revoked: token.revoked,
    impersonation: token.impersonation,
    previousId: token.previousId,
    familyId: token.familyId,
    digest: token.digest,
    granularScopes: token.granularScopes === undefined ? null : frozenScopes(token.granularScopes),
  })
}

/** A row with some fields changed: a new frozen row, the old one left as it was. */
export function withChanges(
  row: StoredRow,
  changes: Partial<Pick<StoredRow, 'revoked' | 'lastUsedAt' | 'lastUsedIps'>>,
): StoredRow {
  return Object.freeze({
    id: row.id,
    userId: row.userId,
    name: row.name,
    description: row.description,
    scopes: row.scopes,
    createdAt: row.createdAt,
    lastUsedAt: changes.lastUsedAt === undefined ? row.lastUsedAt : changes.lastUsedAt,
    lastUsedIps: changes.lastUsedIps === undefined ? row.lastUsedIps : ipList(changes.lastUsedIps),
    expiresAt: row.expiresAt,
    revoked: changes.revoked ?? row.revoked,
    impersonation: row.impersonation,
    previousId: row.previousId,
    familyId: row.familyId,
    digest: row.digest,
    granularScopes: row.granularScopes,
  })
}

/** A fresh, frozen {@link Token} for a row: new `Date` objects on every call. */
export function toToken(row: StoredRow): Token {
  return Object.freeze({
    id: row.id,
    userId: row.userId,
    name: row.name,
    description: row.description,
    scopes: row.scopes,
    createdAt: new Date(row.createdAt),
    lastUsedAt: row.lastUsedAt === null ? null : new Date(row.lastUsedAt),
    expiresAt: row.expiresAt,
    revoked: row.revoked,
    impersonation: row.impersonation,
    previousId: row.previousId,
    familyId: row.familyId,
    digest: row.digest,
    // Absent when none is recorded, as the Token type says.
    ...(row.lastUsedIps.length === 0 ? {} : { lastUsedIps: row.lastUsedIps }),
    ...(row.granularScopes === null ? {} : { granularScopes: row.granularScopes }),
  })
}

/** A deep frozen copy: rows share nothing mutable with callers. */
function frozenScopes(scopes: readonly GranularScope[]): readonly GranularScope[] {
  return Object.freeze(
    scopes.map((scope) => Object.freeze({ ...scope, permissions: Object.freeze([...scope.permissions]) })),
  )
}

/**
 * The string itself, made flat. A name built by concatenation (a template literal, `+`) is a tree of
 * its parts in V8, about 90 bytes for `deploy token 123456` against 40 flat; reading a character
 * flattens it, and the collector then drops the tree. The value is unchanged.
 */
function flat(text: string): string {
  text.charCodeAt(0)
  return text
}

const NO_IPS: readonly string[] = Object.freeze([])

/** A frozen copy of an IP list; every row without IPs shares one empty list. */
function ipList(ips: readonly string[] | undefined): readonly string[] {
  return ips === undefined || ips.length === 0 ? NO_IPS : Object.freeze([...ips])
}

/** The instants of a row, for the query engine's filter and sort: already epoch milliseconds. */
export const ROW_INSTANTS: InstantReader<StoredRow> = Object.freeze({
  createdAt: (row: StoredRow) => row.createdAt,
  lastUsedAt: (row: StoredRow) => row.lastUsedAt,
})
