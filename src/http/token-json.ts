import type { IssuedToken } from '../authority/core/issued-token.js'
import { hasFeature, LATEST_RELEASE, type Release } from '../authority/core/release.js'
import type { GranularScope } from '../domain/granular-scope.js'
import { isActive, isExpired, type Token } from '../domain/token.js'
import type { UserId } from '../domain/user-id.js'

// Date#toISOString costs about as much as the rest of a token's JSON, and every answer carrying a
// token writes two; a busy server writes the same few instants again and again (the tokens in use,
// and `last_used_at`, which moves once a minute). So each instant's text is remembered: a memo of a
// pure function, bounded so an endless variety of instants cannot grow it (docs/benchmarks.md,
// target 3).
const REMEMBERED_INSTANTS = 4096
const isoTexts = new Map<number, string>()

function isoString(at: Date): string {
  const ms = at.getTime()
  let text = isoTexts.get(ms)
  if (text === undefined) {
    if (isoTexts.size >= REMEMBERED_INSTANTS) isoTexts.clear()
    text = at.toISOString()
    isoTexts.set(ms, text)
  }
  return text
}

/**
 * GitLab's `PersonalAccessToken` entity, field for field and in GitLab's order. From 18.10
 * (`token_expired_granular`) GitLab's order is `id, name, active, revoked, expired, granular,
 * created_at, …` (lib/api/entities/personal_access_token.rb); before it `expired` and `granular` are
 * absent and `active` comes after `last_used_at`.
 *
 * @example
 * ```ts
 * import type { TokenJson } from 'patkit/http'
 * declare const body: TokenJson
 * body.expires_at // '2030-01-01' or null
 * ```
 */
export interface TokenJson {
  readonly id: number
  readonly name: string
  readonly revoked: boolean
  /** From 18.10: GitLab's `expired?`, the expiry day has begun. */
  readonly expired?: boolean
  /** From 18.10: whether the token is fine-grained (has granular scopes). */
  readonly granular?: boolean
  /**
   * From 19.6, on a fine-grained token only and not on every route (GitLab's `with_granular_scopes`):
   * its scopes as GitLab's `PersonalAccessTokenGranularScope` entity.
   */
  readonly granular_scopes?: readonly GranularScopeJson[]
  readonly created_at: string
  readonly description: string | null
  readonly scopes: readonly string[]
  /** An integer: the HTTP binding refuses an authority with `userIdType: 'string'`. */
  readonly user_id: UserId
  readonly last_used_at: string | null
  readonly active: boolean
  readonly expires_at: string | null
}

/**
 * The JSON of a token at an instant (`active` and `expired` depend on it) in an emulated release
 * (the newest by default). The digest never leaves.
 *
 * @example
 * ```ts
 * import { tokenJson } from 'patkit/http'
 * JSON.stringify(tokenJson(token, new Date(), '17.0'))
 * ```
 */
export function tokenJson(
  token: Omit<Token, 'digest'>,
  now: Date,
  release: Release = LATEST_RELEASE,
): TokenJson {
  if (hasFeature('token_expired_granular', release)) {
    const expired = isExpired(token, now)
    return {
      id: token.id,
      name: token.name,
      active: !token.revoked && !expired,
      revoked: token.revoked,
      expired,
      granular: token.granularScopes !== undefined,
      created_at: isoString(token.createdAt),
      description: token.description,
      scopes: token.scopes,
      user_id: token.userId,
      last_used_at: token.lastUsedAt === null ? null : isoString(token.lastUsedAt),
      expires_at: token.expiresAt,
    }
  }
  return {
    id: token.id,
    name: token.name,
    revoked: token.revoked,
    created_at: isoString(token.createdAt),
    description: token.description,
    scopes: token.scopes,
    user_id: token.userId,
    last_used_at: token.lastUsedAt === null ? null : isoString(token.lastUsedAt),
    active: isActive(token, now),
    expires_at: token.expiresAt,
  }
}

/**
 * GitLab's `PersonalAccessTokenWithLastUsedIps` entity: the token's JSON and its last client IPs,
 * oldest first (`[]` when none is recorded).
 *
 * @example
 * ```ts
 * import type { TokenWithIpsJson } from 'patkit/http'
 * declare const body: TokenWithIpsJson
 * body.last_used_ips // ['203.0.113.7']
 * ```
 */
export interface TokenWithIpsJson extends TokenJson {
  readonly last_used_ips: readonly string[]
}

/**
 * The JSON of a token with its `last_used_ips` (GitLab's `PersonalAccessTokenWithLastUsedIps`).
 *
 * @example
 * ```ts
 * import { tokenWithIpsJson } from 'patkit/http'
 * tokenWithIpsJson(token, new Date()).last_used_ips
 * ```
 */
export function tokenWithIpsJson(
  token: Token,
  now: Date,
  release: Release = LATEST_RELEASE,
): TokenWithIpsJson {
  // Added to the fresh object rather than spread into a new one: JSON.stringify of a spread object
  // costs about twice as much (docs/benchmarks.md, target 3). It comes last, as in GitLab's entity.
  const json: TokenJson & { last_used_ips?: readonly string[] } = tokenJson(token, now, release)
  json.last_used_ips = token.lastUsedIps ?? NO_IPS
  const scopes = shownGranularScopes(token, release)
  if (scopes !== undefined)
    (json as { granular_scopes?: readonly GranularScopeJson[] }).granular_scopes = scopes
  return json as TokenWithIpsJson
}

const NO_IPS: readonly string[] = Object.freeze([])

const text = JSON.stringify

// A token just issued (created or rotated): its JSON and, once, its secret as `token`.
export function issuedTokenJson(
  issued: Pick<IssuedToken, 'token' | 'secret'>,
  now: Date,
  release: Release,
): TokenJson & { token: string } {
  const scopes = shownGranularScopes(issued.token, release)
  return {
    ...tokenJson(issued.token, now, release),
    token: issued.secret,
    ...(scopes === undefined ? {} : { granular_scopes: scopes }),
  }
}

/**
 * A token's JSON text on a route that shows `last_used_ips` from the release `feature` names on:
 * written out rather than built as an object and stringified, byte for byte `JSON.stringify` of
 * {@link tokenWithIpsJson} (from that release) or {@link tokenJson} (before), which a property test
 * holds, in about half the time. `GET /self` answers one on every call (docs/benchmarks.md, target 3).
 */
export function tokenJsonText(
  token: Token,
  now: Date,
  release: Release,
  feature: 'last_used_ips' | 'last_used_ips_self' | 'last_used_ips_list',
  withGranularScopes = true,
): string {
  // Only a frozen token is remembered: its fields cannot change under the remembered text.
  const frozen = Object.isFrozen(token)
  const expired = isExpired(token, now)
  if (frozen) {
    const known = tokenTexts.get(token)
    if (
      known !== undefined &&
      known.expired === expired &&
      known.release === release &&
      known.feature === feature &&
      known.withGranularScopes === withGranularScopes
    ) {
      return known.text
    }
  }
  const text = writeTokenJson(token, expired, release, feature, withGranularScopes)
  if (frozen) {
    if (tokenTexts.size >= REMEMBERED_TOKENS) tokenTexts.clear()
    tokenTexts.set(token, { expired, release, feature, withGranularScopes, text })
  }
  return text
}

// A token's text depends on the instant only through `expired` (and `active`, which follows it), so
// a store that hands out the same frozen token object for its unchanged row (the memory store) has
// its text written once, and `GET /self` answers it again (docs/benchmarks.md, target 3f): a memo of
// a pure function, bounded like the instants' so an endless variety of tokens cannot grow it.
const REMEMBERED_TOKENS = 4096
const tokenTexts = new Map<
  Token,
  {
    readonly expired: boolean
    readonly release: Release
    readonly feature: string
    readonly withGranularScopes: boolean
    readonly text: string
  }
>()

function writeTokenJson(
  token: Token,
  expired: boolean,
  release: Release,
  feature: 'last_used_ips' | 'last_used_ips_self' | 'last_used_ips_list',
  withGranularScopes: boolean,
): string {
  const lastUsedAt = token.lastUsedAt === null ? 'null' : `"${isoString(token.lastUsedAt)}"`
  const rest =
    `"created_at":"${isoString(token.createdAt)}","description":${text(token.description)},` +
    `"scopes":${text(token.scopes)},"user_id":${text(token.userId)},"last_used_at":${lastUsedAt},`
  let head: string
  if (hasFeature('token_expired_granular', release)) {
    head =
      `{"id":${text(token.id)},"name":${text(token.name)},"active":${!token.revoked && !expired},` +
      `"revoked":${token.revoked},"expired":${expired},"granular":${token.granularScopes !== undefined},${rest}"expires_at":${text(token.expiresAt)}`
  } else {
    head =
      `{"id":${text(token.id)},"name":${text(token.name)},"revoked":${token.revoked},${rest}` +
      `"active":${!token.revoked && !expired},"expires_at":${text(token.expiresAt)}`
  }
  const scopes = withGranularScopes ? shownGranularScopes(token, release) : undefined
  const tail = scopes === undefined ? '}' : `,"granular_scopes":${text(scopes)}}`
  return hasFeature(feature, release)
    ? `${head},"last_used_ips":${text(token.lastUsedIps ?? NO_IPS)}${tail}`
    : `${head}${tail}`
}

/**
 * GitLab's `ImpersonationToken` entity (the token's JSON, `last_used_ips` from the release that shows
 * them, and `impersonation`), and with a secret its `ImpersonationTokenWithToken`: before that release
 * `token` comes before `impersonation`, from it after, as GitLab's entities inherit them.
 */
export function impersonationTokenJson(
  token: Token,
  now: Date,
  release: Release,
  secret?: string,
): TokenJson & { readonly impersonation: boolean; readonly token?: string } {
  const base = tokenJson(token, now, release)
  const scopes = shownGranularScopes(token, release)
  // Last, as the entity adds it (19.6, doc/api/user_tokens.md); only a granular token has it.
  const granular = scopes === undefined ? {} : { granular_scopes: scopes }
  if (hasFeature('last_used_ips_list', release)) {
    const withIps = { ...base, last_used_ips: token.lastUsedIps ?? [], impersonation: token.impersonation }
    return secret === undefined ? { ...withIps, ...granular } : { ...withIps, token: secret, ...granular }
  }
  return secret === undefined
    ? { ...base, impersonation: token.impersonation }
    : { ...base, token: secret, impersonation: token.impersonation }
}

/**
 * GitLab's `PersonalAccessTokenGranularScope` entity: `project_id` or `group_id` is set for a
 * `selected_memberships` scope on a project or group, both `null` otherwise (the keys are present).
 *
 * @example
 * ```ts
 * import type { GranularScopeJson } from 'patkit/http'
 * const scope: GranularScopeJson = { access: 'user', permissions: ['read_user'], project_id: null, group_id: null }
 * ```
 */
export interface GranularScopeJson {
  readonly access: string
  readonly permissions: readonly string[]
  readonly project_id: number | null
  readonly group_id: number | null
}

/** A fine-grained scope as GitLab's `PersonalAccessTokenGranularScope` entity shows it. */
export function granularScopeJson(scope: GranularScope): GranularScopeJson {
  return {
    access: scope.access,
    permissions: scope.permissions,
    project_id: scope.projectId,
    group_id: scope.groupId,
  }
}

// GitLab exposes `granular_scopes` only on a granular token (`if: token.granular?`) on the routes that
// pass `with_granular_scopes`; GET /personal_access_tokens/self does not in the versions read (facts
// §11.2), so its caller leaves it out.
function shownGranularScopes(
  token: Pick<Token, 'granularScopes'>,
  release: Release,
): readonly GranularScopeJson[] | undefined {
  if (token.granularScopes === undefined || !hasFeature('granular_scopes_json', release)) return undefined
  return token.granularScopes.map(granularScopeJson)
}
