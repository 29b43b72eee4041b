import type { Insertable } from 'kysely'
import type { CalendarDate } from '../domain/calendar.js'
import { GRANULAR_ACCESS, type GranularAccess, type GranularScope } from '../domain/granular-scope.js'
import type { Token, TokenDraft } from '../domain/token.js'
import type { UserId, UserIdType } from '../domain/user-id.js'
import type { SqlDialect } from './dialect/sql-dialect.js'
import type { TokensTable } from './schema.js'

/**
 * The columns a token is read with. Instants and days are selected as text under their own names (so
 * an `ORDER BY created_at` can never pick the text up instead of the column).
 */
export function tokenColumns(dialect: SqlDialect) {
  return [
    'tokens.id',
    'tokens.user_id',
    'tokens.name',
    'tokens.description',
    'tokens.scopes',
    dialect.instantText('tokens.created_at').as('created_at_utc'),
    dialect.instantText('tokens.last_used_at').as('last_used_at_utc'),
    'tokens.last_used_ips',
    dialect.dayText('tokens.expires_at').as('expires_on'),
    'tokens.revoked',
    'tokens.impersonation',
    'tokens.previous_id',
    'tokens.family_id',
    'tokens.digest',
    'tokens.granular_scopes',
  ] as const
}

/**
 * A token row as selected by {@link tokenColumns}, before decoding: the driver decides each value's type.
 */
export interface TokenRow {
  readonly id: unknown
  readonly user_id: unknown
  readonly name: unknown
  readonly description: unknown
  readonly scopes: unknown
  readonly created_at_utc: unknown
  readonly last_used_at_utc: unknown
  readonly last_used_ips: unknown
  readonly expires_on: unknown
  readonly revoked: unknown
  readonly impersonation: unknown
  readonly previous_id: unknown
  readonly family_id: unknown
  readonly digest: unknown
  readonly granular_scopes: unknown
}

/** A stored value the store did not write: the row is corrupt, and the operation fails with it. */
function corrupt(column: string, value: unknown): Error {
  return new TypeError(`patkit/sql: unexpected ${column} value ${String(value)}`)
}

/**
 * An integer column as a number, whichever way the driver hands it over (pg: a string for `bigint`;
 * kysely: a bigint for insert ids).
 */
export function decodeInteger(value: unknown, column: string): number {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  const converted = typeof number === 'bigint' ? Number(number) : number
  if (typeof converted !== 'number' || !Number.isSafeInteger(converted)) throw corrupt(column, value)
  return converted
}

/**
 * A user id column: an integer (as {@link decodeInteger}) or, with `userIdType: 'string'`, the text
 * as stored.
 */
export function decodeUserId(value: unknown, userIdType: UserIdType, column: string): UserId {
  if (userIdType === 'integer') return decodeInteger(value, column)
  if (typeof value !== 'string' || value === '') throw corrupt(column, value)
  return value
}

/** A boolean column: `true`/`false` (PostgreSQL), `0`/`1` (MySQL's tinyint, SQLite). */
export function decodeBoolean(value: unknown, column: string): boolean {
  if (value === true || value === 1 || value === 1n || value === '1') return true
  if (value === false || value === 0 || value === 0n || value === '0') return false
  throw corrupt(column, value)
}

// The shapes the dialects' instantText produce: `T` or space, optional fraction, optional `Z`; UTC.
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?Z?$/
const ISO_MS = /^(?!00)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
const SPACE_MS = /^(?!00)\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/

/** A UTC instant selected as text, to a `Date` with millisecond precision. */
export function decodeInstant(value: unknown, column: string): Date {
  // The shapes the store's own writes come back in (`toISOString()` text on SQLite, to_char's on
  // PostgreSQL) are ISO 8601 date-time strings, which `Date` parses exactly and much faster than the
  // general path below. Years 0000-0099 (which Date.UTC maps to 19xx) and NaN (an impossible day) take
  // the general path, so every value decodes exactly as before.
  if (typeof value === 'string' && value.length === 24 && ISO_MS.test(value)) {
    const at = new Date(value)
    if (!Number.isNaN(at.getTime())) return at
  } else if (typeof value === 'string' && value.length === 23 && SPACE_MS.test(value)) {
    const at = new Date(`${value.slice(0, 10)}T${value.slice(11)}Z`)
    if (!Number.isNaN(at.getTime())) return at
  }
  const match = typeof value === 'string' ? INSTANT.exec(value) : null
  if (match === null) throw corrupt(column, value)
  const [, y, mo, d, h, mi, s, fraction = ''] = match
  const ms = Number(fraction.padEnd(3, '0').slice(0, 3))
  const at = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms))
  // Date.UTC maps years 0..99 to 1900..1999; setUTCFullYear puts them back.
  at.setUTCFullYear(Number(y))
  return at
}

const DAY = /^\d{4}-\d{2}-\d{2}$/

function decodeDay(value: unknown, column: string): CalendarDate {
  if (typeof value !== 'string' || !DAY.test(value)) throw corrupt(column, value)
  return value as CalendarDate
}

export function decodeText(value: unknown, column: string): string {
  if (typeof value !== 'string') throw corrupt(column, value)
  return value
}

// Any strings: the vocabulary is the authority's (its `scopes` option), checked when a token is made.
function decodeScopes(value: unknown): readonly string[] {
  const parsed: unknown = JSON.parse(decodeText(value, 'scopes'))
  if (!Array.isArray(parsed) || !parsed.every((s): s is string => typeof s === 'string')) {
    throw corrupt('scopes', value)
  }
  return parsed
}

/**
 * A {@link Token} from a row selected with {@link tokenColumns}. Throws on a value the store never
 * writes; inside a store operation that becomes a `store_failure`.
 */
export function decodeToken(row: TokenRow, userIdType: UserIdType): Token {
  return {
    id: decodeInteger(row.id, 'id'),
    userId: decodeUserId(row.user_id, userIdType, 'user_id'),
    name: decodeText(row.name, 'name'),
    description: row.description === null ? null : decodeText(row.description, 'description'),
    scopes: decodeScopes(row.scopes),
    createdAt: decodeInstant(row.created_at_utc, 'created_at'),
    lastUsedAt: row.last_used_at_utc === null ? null : decodeInstant(row.last_used_at_utc, 'last_used_at'),
    ...decodeIps(row.last_used_ips),
    expiresAt: row.expires_on === null ? null : decodeDay(row.expires_on, 'expires_at'),
    revoked: decodeBoolean(row.revoked, 'revoked'),
    impersonation: decodeBoolean(row.impersonation, 'impersonation'),
    previousId: row.previous_id === null ? null : decodeInteger(row.previous_id, 'previous_id'),
    familyId: decodeInteger(row.family_id, 'family_id'),
    digest: decodeText(row.digest, 'digest'),
    ...decodeGranularScopes(row.granular_scopes),
  }
}

/**
 * The column values that store a token or draft: `familyId` is given separately because a first
 * generation token's family is its own id, known only after the insert. Scopes are a JSON array.
 */
export function encodeToken(
  dialect: SqlDialect,
  token: TokenDraft | Token,
  familyId: number,
): Insertable<TokensTable> {
  return {
    user_id: token.userId,
    name: token.name,
    description: token.description,
    scopes: JSON.stringify(token.scopes),
    created_at: dialect.instant(token.createdAt),
    last_used_at: token.lastUsedAt === null ? null : dialect.instant(token.lastUsedAt),
    last_used_ips: encodeIps(token.lastUsedIps),
    expires_at: token.expiresAt,
    revoked: dialect.bool(token.revoked),
    impersonation: dialect.bool(token.impersonation),
    previous_id: token.previousId,
    family_id: familyId,
    digest: token.digest,
    granular_scopes: token.granularScopes === undefined ? null : encodeGranularScopes(token.granularScopes),
  }
}

/**
 * The stored form of a token's last IPs: space-separated, oldest first, `''` for none (IP addresses
 * never contain a space).
 */
export function encodeIps(ips: readonly string[] | undefined): string {
  return ips === undefined ? '' : ips.join(' ')
}

// Absent when none is recorded, as the Token type says.
function decodeIps(value: unknown): { readonly lastUsedIps?: readonly string[] } {
  if (value === null || value === undefined || value === '') return {}
  if (typeof value !== 'string') throw corrupt('last_used_ips', value)
  return { lastUsedIps: value.split(' ') }
}

/** The stored form of granular scopes: a JSON array of `{access, permissions, project_id, group_id}`. */
export function encodeGranularScopes(scopes: readonly GranularScope[]): string {
  return JSON.stringify(
    scopes.map((s) => ({
      access: s.access,
      permissions: s.permissions,
      project_id: s.projectId,
      group_id: s.groupId,
    })),
  )
}

const ACCESS: ReadonlySet<string> = new Set(GRANULAR_ACCESS)

function isId(value: unknown): value is number | null {
  return value === null || (typeof value === 'number' && Number.isSafeInteger(value))
}

// Absent on a legacy token (null), as the Token type says.
function decodeGranularScopes(value: unknown): { readonly granularScopes?: readonly GranularScope[] } {
  if (value === null || value === undefined) return {}
  const parsed: unknown = JSON.parse(decodeText(value, 'granular_scopes'))
  if (!Array.isArray(parsed)) throw corrupt('granular_scopes', value)
  const scopes = parsed.map((entry: unknown): GranularScope => {
    if (typeof entry !== 'object' || entry === null) throw corrupt('granular_scopes', value)
    const { access, permissions, project_id, group_id } = entry as Record<string, unknown>
    if (
      typeof access !== 'string' ||
      !ACCESS.has(access) ||
      !Array.isArray(permissions) ||
      !permissions.every((p): p is string => typeof p === 'string') ||
      !isId(project_id) ||
      !isId(group_id)
    ) {
      throw corrupt('granular_scopes', value)
    }
    return { access: access as GranularAccess, permissions, projectId: project_id, groupId: group_id }
  })
  return { granularScopes: scopes }
}
