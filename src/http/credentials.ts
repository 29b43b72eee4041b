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

/**
 * The user a request names with `sudo`, where GitLab looks (`params[:sudo] || env['HTTP_SUDO']`): the
 * `sudo` parameter (query or body), then the `Sudo` header; `null` when neither is given. An empty
 * value is given, as in Ruby, where `""` is truthy: it names no user.
 */
export function sudoIdentifier(
  request: Pick<IncomingRequest, 'headers'>,
  url: URL,
  body: BodyParams,
): string | null {
  const fromBody = body['sudo']
  if (fromBody !== undefined && fromBody !== null) {
    return typeof fromBody === 'string' ? fromBody : JSON.stringify(fromBody)
  }
  if (url.search.length > 1) {
    const fromQuery = url.searchParams.getAll('sudo').at(-1)
    if (fromQuery !== undefined) return fromQuery
  }
  return request.headers.get('sudo')
}
