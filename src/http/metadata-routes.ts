import type { Authority } from '../authority/create-authority.js'
import { hasFeature } from '../authority/release.js'
import { errorReply } from './error-response.js'
import type { IncomingRequest } from './incoming.js'
import { optionalPrincipal } from './optional-principal.js'
import { error, json, type Reply } from './responses.js'

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
 * Serves `GET /metadata` (from 15.2; before, the path is unknown: 404 before any authentication) and
 * `GET /version`, which answers the same from 15.5 and only `version` and `revision` before, as
 * GitLab's did. Both need a token (`authenticate!`): none is 401.
 *
 * @example
 * ```ts
 * import { serveMetadataRoute } from './metadata-routes.js'
 * declare const url: URL
 *
 * const reply = await serveMetadataRoute(authority, 'version', request, url)
 * ```
 */
export async function serveMetadataRoute(
  authority: Authority,
  name: MetadataRouteName,
  request: IncomingRequest,
  url: URL,
): Promise<Reply> {
  if (name === 'metadata' && !hasFeature('metadata', authority.release)) return error(404, '404 Not Found')
  const caller = await optionalPrincipal(authority, request, url)
  if (caller.isErr()) return errorReply(caller.error)
  if (caller.value === null) return errorReply({ type: 'unauthenticated' })
  const metadata = await authority.metadata(caller.value)
  if (metadata.isErr()) return errorReply(metadata.error)
  if (name === 'version' && !hasFeature('version_mirrors_metadata', authority.release)) {
    return json(200, { version: metadata.value.version, revision: metadata.value.revision })
  }
  return json(200, metadata.value)
}
