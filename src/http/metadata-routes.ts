import type { Authority } from '../authority/create-authority.js'
import type { Principal } from '../authority/principal.js'
import { hasFeature } from '../authority/release.js'
import { errorReply } from './error-response.js'
import { json, type Reply } from './responses.js'

/**
 * The instance routes patkit serves: `GET /version` and `GET /metadata`.
 *
 * @example
 * ```ts
 * import type { MetadataRouteName } from './metadata-routes.js'
 * const name: MetadataRouteName = 'version'
 * ```
 */
export type MetadataRouteName = 'version' | 'metadata'

/**
 * Whether a route is `version` or `metadata`.
 *
 * @example
 * ```ts
 * import { isMetadataRoute } from './metadata-routes.js'
 *
 * isMetadataRoute('metadata') // true
 * ```
 */
export function isMetadataRoute(name: string): name is MetadataRouteName {
  return name === 'version' || name === 'metadata'
}

/**
 * Serves `GET /metadata` (from 15.2; before, the path is no route: routes.ts) and `GET /version`,
 * which answers the same from 15.5 and only `version` and `revision` before, as GitLab's did, for the
 * request's principal (both need a token, GitLab's `authenticate!`).
 *
 * @example
 * ```ts
 * import { serveMetadataRoute } from './metadata-routes.js'
 *
 * const reply = await serveMetadataRoute(authority, 'version', principal)
 * ```
 */
export async function serveMetadataRoute(
  authority: Authority,
  name: MetadataRouteName,
  principal: Principal,
): Promise<Reply> {
  const metadata = await authority.metadata(principal)
  if (metadata.isErr()) return errorReply(metadata.error)
  if (name === 'version' && !hasFeature('version_mirrors_metadata', authority.release)) {
    return json(200, { version: metadata.value.version, revision: metadata.value.revision })
  }
  return json(200, metadata.value)
}
