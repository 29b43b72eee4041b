import type { Authority } from '../authority/create-authority.js'
import type { Principal } from '../authority/principal.js'
import { hasFeature } from '../authority/release.js'
import type { RotationIdempotency } from '../authority/rotate.js'
import { unauthenticated } from '../domain/error-constructors.js'
import type { PatkitError } from '../domain/errors.js'
import { SCOPES, USER_CREATABLE_SCOPES } from '../domain/scopes.js'
import { paginate } from '../query/pagination.js'
import { actingPrincipal } from './acting-principal.js'
import { parseAssociationsParams } from './associations.js'
import type { HandlerOptions } from './create-handler.js'
import { credentialsOf } from './credentials.js'
import { type ErrorContext, errorReply } from './error-response.js'
import { parseForm } from './form-params.js'
import { idempotencyKeyOf, replayedRotation, rotationIdempotency } from './idempotency.js'
import {
  type ImpersonationRouteName,
  isImpersonationRoute,
  serveImpersonationRoute,
} from './impersonation-routes.js'
import type { IncomingRequest } from './incoming.js'
import { listParamsParser } from './list-params.js'
import { isMalformedAuthorization, isMalformedUrl, MALFORMED } from './malformed-strings.js'
import { isMetadataRoute, type MetadataRouteName, serveMetadataRoute } from './metadata-routes.js'
import { paginationHeaders } from './pagination-headers.js'
import { type BodyParams, DEFAULT_BODY_LIMIT, readBodyParams } from './request-body.js'
import { grapeDate, parseCreateBody, parseId, parseTokenRef, unknownParameter } from './request-params.js'
import { error, json, message, noContent, type Reply } from './responses.js'
import { matchRoute, type RouteName } from './routes.js'
import { tokenJson, tokenJsonFor } from './token-json.js'
import { isUserRoute, serveUserRoute, type UserRouteName } from './user-routes.js'

/**
 * The handler's logic, between a request view and a {@link Reply}: `createHandler` wraps it into a
 * web-standard `(Request) => Promise<Response>`, and `createNodeListener` serves it on node:http
 * directly from the `IncomingMessage`. Both are built from the authority, so neither has to find the
 * other's core.
 */
export type HandlerCore = (request: IncomingRequest) => Promise<Reply>

/** An unknown parameter name, shortened so a hostile 60 KB key is not echoed back whole. */
function printable(name: string): string {
  return name.length > 64 ? `${name.slice(0, 64)}…` : name
}

/**
 * The parameters of a request with a body, as Grape sees them: the query's and the body's, the body
 * winning a name both give (Rack's `GET.merge(POST)`, whole values: a body's `scopes` replaces the
 * query's `scopes[]`). The URL was checked already, so its query parses.
 */
function withQuery(url: URL, body: BodyParams): BodyParams {
  if (url.search.length <= 1) return body
  return { ...parseForm(url.search.slice(1)), ...body }
}

/**
 * The start-up error of the GitLab HTTP binding over an authority with string user ids.
 *
 * @example
 * ```ts
 * import { STRING_USER_IDS_REFUSED } from './handler-core.js'
 * STRING_USER_IDS_REFUSED.startsWith('patkit/http:') // true
 * ```
 */
export const STRING_USER_IDS_REFUSED =
  "patkit/http: GitLab's API has integer user ids, and this authority has userIdType 'string'; " +
  'createHandler and createNodeListener serve GitLab emulation only. Guard your own routes with ' +
  'authenticateRequest and call the authority from them (docs/embedding.md, "String user ids")'

/**
 * Serves GitLab's personal access token API over an authority (see `createHandler`). Status codes and
 * bodies are GitLab's, byte for byte; an answer to HEAD is the GET answer without its body.
 *
 * @throws {TypeError} {@link STRING_USER_IDS_REFUSED} for an authority with `userIdType: 'string'`:
 * GitLab's clients read `user_id` and `/users/:id` as integers, so a string there would break them.
 */
export function handlerCore(authority: Authority, options: HandlerOptions = {}): HandlerCore {
  if (authority.userIdType === 'string') throw new TypeError(STRING_USER_IDS_REFUSED)
  const basePath = (options.basePath ?? '/api/v4').replace(/\/+$/, '')
  const publicUrl = options.publicUrl === undefined ? undefined : new URL(options.publicUrl)
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT

  async function handle(request: IncomingRequest): Promise<Reply> {
    const url = request.parsedUrl ?? new URL(request.url)
    // GitLab refuses a null byte or invalid UTF-8 in a Rack middleware, before routing: so does
    // patkit, before any store sees the value (PostgreSQL would fail on it with a 500).
    if (isMalformedUrl(url) || isMalformedAuthorization(request.headers.get('authorization'))) {
      return MALFORMED
    }
    if (!url.pathname.startsWith(`${basePath}/`)) return error(404, '404 Not Found')
    const method = request.method.toUpperCase()
    const match = matchRoute(method, url.pathname.slice(basePath.length))
    if (match.kind === 'not_found') return error(404, '404 Not Found')
    if (match.kind === 'method_not_allowed') {
      return error(405, '405 Method Not Allowed', { allow: match.allow.join(', ') })
    }
    // A route of a later GitLab is no route at all: 404 before authentication.
    if (match.since !== undefined && !hasFeature(match.since, authority.release)) {
      return error(404, '404 Not Found')
    }
    let body: BodyParams = {}
    let params: BodyParams = {}
    if (method === 'POST' || method === 'DELETE') {
      const read = await readBodyParams(request, bodyLimit)
      if (read.isErr()) return read.error
      body = read.value
      params = withQuery(url, body)
    }
    const credentials = credentialsOf(request, url, body)
    const { secret } = credentials
    // Only body names are checked: an unknown query parameter is ignored on every route, as on GET.
    const unknown = match.bodyParams === undefined ? undefined : unknownParameter(body, match.bodyParams)
    // A retried rotation (docs/rotation.md) is answered before authentication, which would take the
    // rotated token for reuse. Only a request the first one could have been: no unknown parameter.
    // Without the header, a rotation inside the grace window (off by default) is replayed the same way.
    const idempotencyKey = idempotencyKeyOf(request, match.name === 'rotate')
    if (match.name === 'rotate' && unknown === undefined) {
      const replayed = await replayedRotation(authority, secret, match.segment, idempotencyKey)
      if (replayed !== null) return replayed
    }
    // Every route acts as this one principal, the user `sudo` names when it names one.
    const caller = await actingPrincipal(authority, credentials, {
      rotateRequest: match.name === 'rotate',
      write: method !== 'GET' && method !== 'HEAD',
      ip: request.clientIp ?? null,
    })
    if (caller.isErr()) return errorReply(caller.error)
    const principal = caller.value
    // The users API also serves anonymous callers (GET only, so no body): each of its routes decides.
    if (isUserRoute(match.name)) {
      return serveUserRoute(authority, match.name, match.segment, principal, url, publicUrl)
    }
    // GitLab's `authenticate!`.
    if (principal === null) return errorReply(unauthenticated('missing'))
    if (unknown !== undefined) return error(400, `${printable(unknown)} is not a known parameter`)
    if (isMetadataRoute(match.name)) return serveMetadataRoute(authority, match.name, principal)
    if (isImpersonationRoute(match.name)) {
      const { segment, subsegment } = match
      return serveImpersonationRoute(
        authority,
        match.name,
        segment,
        subsegment,
        principal,
        url,
        params,
        publicUrl,
      )
    }
    return serve(
      match.name,
      match.segment,
      principal,
      url,
      params,
      rotationIdempotency(idempotencyKey, secret),
      secret,
    )
  }

  async function serve(
    name: Exclude<RouteName, UserRouteName | MetadataRouteName | ImpersonationRouteName>,
    segment: string | undefined,
    principal: Principal,
    url: URL,
    body: BodyParams,
    idempotency: RotationIdempotency | undefined,
    secret: string | null,
  ): Promise<Reply> {
    const fail = (e: PatkitError, context: ErrorContext = 'default') => errorReply(e, context)
    switch (name) {
      case 'list': {
        const params = (await listParamsParser())(url.searchParams)
        if (params.isErr()) return fail(params.error)
        const { filter, sort, page } = params.value
        const request = {
          filter,
          sort,
          page,
          ...(params.value.userRef === undefined ? {} : { userRef: params.value.userRef }),
        }
        const result = await authority.list(principal, request)
        if (result.isErr()) return fail(result.error)
        const now = authority.now()
        return json(
          200,
          result.value.items.map((t) => tokenJsonFor(t, now, authority.release, 'last_used_ips_list')),
          paginationHeaders(result.value.pagination, url, publicUrl),
        )
      }
      case 'associations': {
        // Any scope may read it (GitLab allows every scope on this class); patkit's principals are
        // always personal access tokens, and it knows no groups or projects, so both lists are empty.
        const params = parseAssociationsParams(url.searchParams, authority.release, await listParamsParser())
        if (params.isErr()) return fail(params.error)
        return json(
          200,
          { groups: [], projects: [] },
          paginationHeaders(paginate(0, params.value.page), url, publicUrl),
        )
      }
      case 'get': {
        const ref = parseTokenRef(segment)
        if (ref.isErr()) return fail(ref.error)
        const result = await authority.get(principal, ref.value)
        if (result.isErr()) return fail(result.error)
        const ips = ref.value === 'self' ? 'last_used_ips_self' : 'last_used_ips'
        return json(200, tokenJsonFor(result.value, authority.now(), authority.release, ips))
      }
      case 'revoke': {
        const ref = parseTokenRef(segment)
        if (ref.isErr()) return fail(ref.error)
        const result = await authority.revoke(principal, ref.value)
        return result.isErr()
          ? fail(result.error, ref.value === 'self' ? 'default' : 'revoke_by_id')
          : noContent()
      }
      case 'rotate': {
        const ref = parseTokenRef(segment)
        if (ref.isErr()) return fail(ref.error)
        const expiresAt = grapeDate(body, 'expires_at')
        if (expiresAt.isErr()) return fail(expiresAt.error)
        const result = await authority.rotate(principal, ref.value, {
          ...(expiresAt.value === undefined ? {} : { expiresAt: expiresAt.value }),
          ...(idempotency === undefined ? {} : { idempotency }),
          ...(secret === null ? {} : { presentedSecret: secret }),
        })
        if (result.isErr()) return fail(result.error)
        return json(200, { ...tokenJson(result.value.token, authority.now()), token: result.value.secret })
      }
      case 'create_for_user':
      case 'create_self': {
        let target: number | 'self' = 'self'
        if (name === 'create_for_user') {
          const id = parseId(segment, 'user_id')
          if (id.isErr()) return fail(id.error)
          target = id.value
        }
        const input = parseCreateBody(body, name === 'create_self' ? USER_CREATABLE_SCOPES : SCOPES)
        if (input.isErr()) return fail(input.error)
        const result = await authority.create(principal, target, input.value)
        if (result.isErr()) return fail(result.error, 'create')
        return json(201, { ...tokenJson(result.value.token, authority.now()), token: result.value.secret })
      }
    }
  }

  return async (request) => {
    let response: Reply
    try {
      response = await handle(request)
    } catch {
      // Only a bug or a broken store implementation can get here: answer like GitLab's 500.
      response = message(500, '500 Internal Server Error')
    }
    // A HEAD answer has the headers of the GET answer and never a body, whatever the outcome.
    return request.method.toUpperCase() === 'HEAD' ? { ...response, body: null } : response
  }
}
