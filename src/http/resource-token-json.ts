import { hasFeature, type Release } from '../authority/core/release.js'
import type { ResourceToken } from '../authority/resource/resource-token-access.js'
import type { AccessLevel, ResourceType } from '../domain/resource.js'
import {
  type TokenJson,
  type TokenWithIpsJson,
  tokenJson,
  tokenJsonText,
  tokenWithIpsJson,
} from './token-json.js'

/** GitLab's `ResourceAccessToken` entity: the personal access token's fields, then the bot's role and the resource. */
export type ResourceTokenJson = (TokenJson | TokenWithIpsJson) & {
  readonly access_level: AccessLevel | null
  readonly resource_type: ResourceType
  readonly resource_id: number
}

/** The entity as an object (the reference the text is held to, and the base of `token`-carrying answers). */
export function resourceTokenJson(shown: ResourceToken, now: Date, release: Release): ResourceTokenJson {
  const base = hasFeature('last_used_ips_list', release)
    ? tokenWithIpsJson(shown.token, now, release)
    : tokenJson(shown.token, now, release)
  return {
    ...base,
    access_level: shown.accessLevel,
    resource_type: shown.resource.type,
    resource_id: shown.resource.id,
  }
}

/**
 * The entity's JSON text, written out like `tokenJsonText` (byte for byte `JSON.stringify` of
 * {@link resourceTokenJson}, which a property test holds); with `secret`, GitLab's
 * `ResourceAccessTokenWithToken` (`token` last).
 */
export function resourceTokenJsonText(
  shown: ResourceToken,
  now: Date,
  release: Release,
  secret?: string,
): string {
  const head = tokenJsonText(shown.token, now, release, 'last_used_ips_list').slice(0, -1)
  const level = shown.accessLevel === null ? 'null' : String(shown.accessLevel)
  const tail = secret === undefined ? '' : `,"token":${JSON.stringify(secret)}`
  return `${head},"access_level":${level},"resource_type":"${shown.resource.type}","resource_id":${shown.resource.id}${tail}}`
}
