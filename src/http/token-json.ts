import { isActive, type Token } from '../domain/token.js'

/**
 * GitLab's `PersonalAccessToken` entity, field for field and in GitLab's order.
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
  readonly created_at: string
  readonly description: string | null
  readonly scopes: readonly string[]
  readonly user_id: number
  readonly last_used_at: string | null
  readonly active: boolean
  readonly expires_at: string | null
}

/**
 * The JSON of a token at an instant (`active` depends on it). The digest never leaves.
 *
 * @example
 * ```ts
 * import { tokenJson } from 'patkit/http'
 * JSON.stringify(tokenJson(token, new Date()))
 * ```
 */
export function tokenJson(token: Token, now: Date): TokenJson {
  return {
    id: token.id,
    name: token.name,
    revoked: token.revoked,
    created_at: token.createdAt.toISOString(),
    description: token.description,
    scopes: token.scopes,
    user_id: token.userId,
    last_used_at: token.lastUsedAt === null ? null : token.lastUsedAt.toISOString(),
    active: isActive(token, now),
    expires_at: token.expiresAt,
  }
}
