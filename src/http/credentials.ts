import type { IncomingRequest } from './incoming.js'
import type { BodyParams } from './request-body.js'

/**
 * Where a token is read from: `'headers_or_query'` is where GitLab's API reads one (the `private_token`
 * parameter of the query, and of the body when one is given, then the headers); `'headers'` reads the
 * `PRIVATE-TOKEN` and `Authorization: Bearer` headers only, so a secret never has to sit in a URL
 * that access logs, dev servers and browser histories keep.
 *
 * @example
 * ```ts
 * import type { CredentialSource } from 'patkit/http'
 * const source: CredentialSource = 'headers'
 * ```
 */
export type CredentialSource = 'headers' | 'headers_or_query'

/** What a request presents to authenticate: the secret, and the user it names with `sudo`. */
export interface Credentials {
  readonly secret: string | null
  readonly sudo: string | null
}

/** The credentials of a request to GitLab's API, read where GitLab reads them. */
export function credentialsOf(
  request: Pick<IncomingRequest, 'headers'>,
  url: URL,
  body: BodyParams,
): Credentials {
  return {
    secret: presentedSecret(request, url, body, 'headers_or_query'),
    sudo: sudoIdentifier(request, url, body),
  }
}

/**
 * The presented secret, from where GitLab looks, in its order: the `private_token` parameter
 * ({@link parameterSecret}), the `PRIVATE-TOKEN` header, then `Authorization: Bearer`. With
 * `source: 'headers'` the parameter is not read: the caller refuses it ({@link parameterSecret}).
 */
export function presentedSecret(
  request: Pick<IncomingRequest, 'headers'>,
  url: URL,
  body: BodyParams,
  source: CredentialSource = 'headers_or_query',
): string | null {
  const fromParameter = source === 'headers' ? null : parameterSecret(url, body)
  if (fromParameter !== null) return fromParameter
  const header = request.headers.get('private-token')
  if (header !== null && header !== '') return header
  const authorization = request.headers.get('authorization')
  const bearer = authorization === null ? null : /^Bearer\s+(\S+)\s*$/i.exec(authorization)
  return bearer?.[1] ?? null
}

/** The `private_token` parameter, the query's then the body's; `null` when neither gives a value. */
export function parameterSecret(url: URL, body: BodyParams): string | null {
  // Most requests have no query: its parameters are not parsed then.
  const fromQuery = url.search.length > 1 ? url.searchParams.get('private_token') : null
  if (fromQuery !== null && fromQuery !== '') return fromQuery
  const fromBody = body['private_token']
  return typeof fromBody === 'string' && fromBody !== '' ? fromBody : null
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
