import type { IncomingRequest } from './incoming.js'
import type { BodyParams } from './request-body.js'

/**
 * The presented secret, from where GitLab looks, in its order: the `private_token` parameter
 * (query or body), the `PRIVATE-TOKEN` header, then `Authorization: Bearer`.
 */
export function presentedSecret(
  request: Pick<IncomingRequest, 'headers'>,
  url: URL,
  body: BodyParams,
): string | null {
  const fromQuery = url.searchParams.get('private_token')
  if (fromQuery !== null && fromQuery !== '') return fromQuery
  const fromBody = body['private_token']
  if (typeof fromBody === 'string' && fromBody !== '') return fromBody
  const header = request.headers.get('private-token')
  if (header !== null && header !== '') return header
  const authorization = request.headers.get('authorization')
  const bearer = authorization === null ? null : /^Bearer\s+(\S+)\s*$/i.exec(authorization)
  return bearer?.[1] ?? null
}
