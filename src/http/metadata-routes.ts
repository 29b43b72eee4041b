import { hasFeature } from '../authority/core/release.js'
import { METADATA_SCOPES } from '../authority/core/scope-policy.js'
import { errorReply } from './error-response.js'
import { json, type Reply } from './responses.js'
import type { CallerInput, RouteRow } from './route.js'

/**
 * The instance routes clients call around tokens: `GET /metadata` (from 15.2; before, the path is no
 * route) and `GET /version`, which answers the same from 15.5 and only `version` and `revision`
 * before, as GitLab's did. Both need a token (GitLab's `authenticate!`).
 */
// `Metadata: Read` at the instance (fine-grained-pats.md §8.1, §9: `read_metadata`).
const METADATA = { name: 'read_metadata', boundary: 'instance' } as const

export const METADATA_ROUTES: readonly RouteRow[] = [
  { method: 'GET', path: '/version', scopes: METADATA_SCOPES, permission: METADATA, serve: version },
  {
    method: 'GET',
    path: '/metadata',
    since: 'metadata',
    scopes: METADATA_SCOPES,
    permission: METADATA,
    serve: metadata,
  },
]

async function metadata({ authority, principal }: CallerInput): Promise<Reply> {
  const found = await authority.users.metadata(principal)
  return found.isErr() ? errorReply(found.error) : json(200, found.value)
}

async function version(input: CallerInput): Promise<Reply> {
  const { authority, principal } = input
  if (hasFeature('version_mirrors_metadata', authority.settings.release)) return metadata(input)
  const found = await authority.users.metadata(principal)
  if (found.isErr()) return errorReply(found.error)
  return json(200, { version: found.value.version, revision: found.value.revision })
}
