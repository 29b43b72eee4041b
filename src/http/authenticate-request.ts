import { err, ok, type Result, ResultAsync } from 'neverthrow'
import type { Principal } from '../authority/core/principal.js'
import { ANY_SCOPE, requireScope } from '../authority/core/scope-policy.js'
import type { Authority } from '../authority/create-authority.js'
import { unauthenticated } from '../domain/error-constructors.js'
import type { PatkitError } from '../domain/errors.js'
import type { ResourceStore } from '../store/resource-store.js'
import { settledResult } from '../store/settled.js'
import { type CredentialSource, parameterSecret, presentedSecret } from './credentials.js'
import { bearerChallenge, bearerErrorOf, errorReply, GITLAB_REALM } from './error-response.js'
import type { IncomingRequest } from './incoming.js'
import {
  type BoundaryOption,
  checkPermission,
  fineGrainedUnsupported,
  requirePermission,
} from './permission-guard.js'
import { checkResource, type ResourceOption, requireResource } from './resource-guard.js'
import { type Reply, toResponse } from './responses.js'

/**
 * What protects one of the application's own routes: the authority that knows the tokens, the scopes
 * that let a token in, the realm its challenges name, and where a token may be presented.
 *
 * @example
 * ```ts
 * import type { GuardOptions } from 'patkit/http'
 * const readers: GuardOptions = { authority, scopes: ['read_api', 'api'], realm: 'my-app' }
 * const legacy: GuardOptions = { authority, scopes: 'any', credentials: 'headers_or_query' }
 * const invoices: GuardOptions = { authority, permission: 'read_invoice', boundary: { project: 42 } }
 * const projectBots: GuardOptions = {
 *   authority, scopes: ['api'], resource: { type: 'project', id: 7, minAccessLevel: 30 }, resources: store.resources,
 * }
 * ```
 */
export type GuardOptions<A extends unknown[] = unknown[], P extends string = string> = GuardBase<A, P> &
  (ScopeRequirement | PermissionRequirement<A, P>)

/** What every guard takes, whatever it requires of a token. */
interface GuardBase<A extends unknown[], P extends string> {
  readonly authority: Authority<P>
  /**
   * The `realm` of the `WWW-Authenticate` challenges; defaults to GitLab's, `Protected by OAuth 2.0`.
   * Printable text; `"` and `\` are escaped.
   */
  readonly realm?: string
  /**
   * Where a token may be presented. `'headers'` (the default): `PRIVATE-TOKEN` or `Authorization:
   * Bearer` only; a request with a `private_token` query parameter is refused (401, a bare challenge)
   * without the token being looked up, as a URL is kept by access logs, dev servers and browser
   * histories. `'headers_or_query'`: the query parameter as well, as GitLab's API reads it (for clients
   * that can send no header). The request body is never read either way.
   */
  readonly credentials?: CredentialSource
  /**
   * The project or group the route belongs to: only a token of one of its bots passes (a resource
   * access token), with at least `minAccessLevel` there when given; else 404 `Project Not Found` /
   * `Group Not Found` (a human's token, another resource's bot) or 403 `403 Forbidden` (a bot below
   * the level). A function gets the framework's request (a route parameter) and gives the
   * requirement. Checked after the scopes; without it, no resource is read.
   */
  readonly resource?: ResourceOption<A>
  /**
   * Where the resource's members are read (`store.resources`): needed for `minAccessLevel` and for
   * a resource named by its full path. A static requirement without it throws where the guard is built.
   */
  readonly resources?: ResourceStore | undefined
}

/** A route that lets tokens in by their scopes (legacy tokens; a fine-grained token only with `'any'`). */
interface ScopeRequirement {
  /**
   * A token needs one of these scopes (GitLab's `allow_access_with_scope`: any one suffices), else
   * 403 `insufficient_scope`; `'any'` lets every valid token in. Each must be in the authority's
   * vocabulary (`authority.settings.scopes`: GitLab's scopes unless its `scopes` option names others), and the
   * list must not be empty: the guard throws a `RangeError` where it is built otherwise, naming the
   * scope and the vocabulary (see docs/embedding.md).
   */
  readonly scopes: readonly string[] | 'any'
  readonly permission?: never
  readonly boundary?: never
}

/**
 * A route that lets tokens in by a permission (fine-grained tokens): the token needs `permission` (or
 * every one of a list) where `boundary` is, else 403 `insufficient_granular_scope` with GitLab's message
 * naming the missing permissions. The permission is typed from the authority's `permissions` and
 * checked against them where the guard is built (a `RangeError` for an unknown one). A legacy token is
 * refused 403 as not fine-grained, unless the guard also names `scopes` and it has one of them.
 */
interface PermissionRequirement<A extends unknown[], P extends string> {
  readonly permission: NoInfer<P> | readonly NoInfer<P>[]
  /**
   * Where the permission is needed: `{ project: id }`, `{ group: id }` (with `groups`, the groups
   * above it, for a token granted on a parent group), `'user'` or `'instance'`, or a function of the
   * framework's request giving one, e.g. `(req) => ({ project: Number(req.params.id) })`.
   */
  readonly boundary: BoundaryOption<A>
  /** Legacy tokens with one of these scopes pass too (GitLab keeps a legacy token's scope rules). */
  readonly scopes?: readonly string[] | 'any'
}

/**
 * Checks a guard's options where the guard is built and returns its realm, or throws for options no
 * request could pass, as `new URL('bad')` throws for a programming error: a `TypeError` for a realm
 * no header can carry (a control character) or `scopes` neither a list nor `'any'`; a `RangeError`
 * for an empty `scopes` list or a scope outside the authority's vocabulary (`authority.settings.scopes`),
 * which would otherwise answer every request 403. The message names the mistake and the way out.
 */
export function checkGuard<A extends unknown[], P extends string>(options: GuardOptions<A, P>): string {
  if (options.permission === undefined) checkScopes(options.scopes, options.authority.settings.scopes)
  else {
    checkPermission(options.permission, options.boundary, options.authority.settings.permissions)
    if (options.scopes !== undefined) checkScopes(options.scopes, options.authority.settings.scopes)
  }
  checkResource(options.resource, options.resources)
  return checkRealm(options.realm)
}

const ANY_HINT = "pass scopes: 'any' to let a token of any scope in"

function checkScopes(scopes: unknown, vocabulary: readonly string[]): void {
  if (scopes === 'any') return
  if (!Array.isArray(scopes)) {
    throw new TypeError(
      `patkit guard: scopes must be a list of scopes or 'any', got ${JSON.stringify(scopes) ?? String(scopes)}`,
    )
  }
  if (scopes.length === 0) {
    throw new RangeError(
      `patkit guard: scopes: [] lets no token in; name the scopes a token needs one of, or ${ANY_HINT}`,
    )
  }
  const unknown = scopes.filter((scope) => typeof scope !== 'string' || !vocabulary.includes(scope))
  if (unknown.length > 0) {
    const names = unknown.map((scope) => JSON.stringify(scope) ?? String(scope)).join(', ')
    throw new RangeError(
      `patkit guard: unknown ${unknown.length === 1 ? 'scope' : 'scopes'} ${names} in scopes; the authority's scopes are ${vocabulary.join(', ')} (or ${ANY_HINT})`,
    )
  }
}

/** The realm of the challenges; a realm with a control character throws (see {@link checkGuard}). */
function checkRealm(realm: string | undefined): string {
  if (realm === undefined) return GITLAB_REALM
  // Visible ASCII, space and tab only: what a quoted-string may hold without obs-text.
  if (!/^[\t\x20-\x7e]*$/.test(realm)) {
    throw new TypeError(`patkit guard: realm must be printable ASCII, got ${JSON.stringify(realm)}`)
  }
  return realm
}

/**
 * The refusal of a guarded request: GitLab's status and body for the error (its API guard's), with an
 * RFC 6750 challenge. No credentials: `Bearer realm="..."` and no error (RFC 6750, 3.1); an unknown
 * token or one whose owner is gone: `error="invalid_token"`; an expired or revoked token: GitLab's own
 * header; a missing scope: `error="insufficient_scope"` with the allowed scopes (GitLab's API sends no
 * header on its 403, a gap its source marks FIXME as breaking the standard). A blocked owner's 403
 * and a store failure's 500 carry no challenge, as in GitLab: neither is the token's fault.
 */
export function refusal(e: PatkitError, presented: boolean, realm: string): Reply {
  const reply = errorReply(e)
  // A blocked owner (a valid token, GitLab's 403 `Your account has been blocked.`) and a failing store
  // are not the token's fault: no Bearer error names them, and GitLab sends no challenge for either.
  if (e.type === 'store_failure' || e.type === 'forbidden') return reply
  const bearerError = bearerErrorOf(e) ?? (presented ? { error: 'invalid_token' as const } : undefined)
  return { ...reply, headers: { ...reply.headers, 'www-authenticate': bearerChallenge(realm, bearerError) } }
}

// Most requests a guard sees have no query: their target is not parsed at all (a URL parse was about
// 2% of a guarded route's time). The shared URL is never written to.
const NO_QUERY = new URL('http://localhost/')

/** The URL whose query a guard reads `private_token` from (or refuses); the host is irrelevant. */
export function queryUrl(target: string): URL {
  if (!target.includes('?')) return NO_QUERY
  try {
    return new URL(target, 'http://localhost')
  } catch {
    // A target no URL parser takes has no query to read a token from.
    return NO_QUERY
  }
}

/**
 * {@link authenticateRequest} over any request view, answering a {@link Reply}: the node:http guard
 * calls it with a view of the `IncomingMessage`, so no `Request` or `Response` is built there.
 */
export async function guardRequest<A extends unknown[], P extends string>(
  request: Pick<IncomingRequest, 'headers'>,
  url: URL,
  options: GuardOptions<A, P>,
  realm: string,
  ...args: A
): Promise<Result<Principal, Reply>> {
  // The body is the application's: it is never read. Any value but the opt-in reads headers only.
  const source = options.credentials === 'headers_or_query' ? 'headers_or_query' : 'headers'
  // A secret in the URL of a headers-only guard is refused unread, even beside a header: it is in the
  // logs already, and its client should learn so now rather than keep leaking it. RFC 6750 section
  // 3.1: a request with an unsupported authentication method gets a challenge without an error code.
  if (source === 'headers' && parameterSecret(url, {}) !== null) {
    return err(refusal(unauthenticated('missing'), false, realm))
  }
  const secret = presentedSecret(request, url, {}, source)
  // What is known at once (a token the store holds in memory, a scope check) is not awaited: each
  // await is a turn of the event loop before the route runs (docs/benchmarks.md, target 21).
  const pending = options.authority.authenticate(secret)
  const authenticated = settledResult(pending) ?? (await pending)
  if (authenticated.isErr()) return err(refusal(authenticated.error, secret !== null, realm))
  const right = requireRight(authenticated.value, options, realm, args)
  const permitted = right instanceof Promise ? await right : right
  if (permitted.isErr()) return err(permitted.error)
  const { resource } = options
  if (resource === undefined) return ok(authenticated.value)
  const requirement = typeof resource === 'function' ? await resource(...args) : resource
  const owned = await requireResource(authenticated.value, requirement, options.resources)
  // A 404 or 403 about the resource, not the token: no challenge, as GitLab's API sends none.
  return owned.mapErr((e) => errorReply(e))
}

/**
 * What the route asks of an authenticated token: its `permission` where `boundary` is (a legacy token
 * by the guard's `scopes` when it names some), or one of its `scopes` (a fine-grained token has none:
 * GitLab's "doesn't support" refusal, unless `scopes` is `'any'`).
 */
function requireRight<A extends unknown[], P extends string>(
  principal: Principal,
  options: GuardOptions<A, P>,
  realm: string,
  args: A,
): Result<void, Reply> | Promise<Result<void, Reply>> {
  const fineGrained = principal.token.granularScopes !== undefined
  const { permission, boundary } = options
  // `checkGuard` made sure a permission comes with its boundary.
  if (permission !== undefined && boundary !== undefined && (fineGrained || options.scopes === undefined)) {
    return requirePermission(principal, permission, boundary, realm, args)
  }
  const scopes = options.scopes ?? ANY_SCOPE
  if (fineGrained && scopes !== ANY_SCOPE) return err(fineGrainedUnsupported(realm))
  const scoped = requireScope(principal, scopes === 'any' ? ANY_SCOPE : scopes)
  return scoped.isErr() ? err(refusal(scoped.error, true, realm)) : ok(undefined)
}

/**
 * Authenticates a request to one of the application's own routes with a personal access token, as
 * GitLab's API does: the token from the `PRIVATE-TOKEN` header or `Authorization: Bearer` (also the
 * `private_token` query parameter with `credentials: 'headers_or_query'`; without it, a request with
 * one is refused; the request body is never read), then its expiry, revocation and scopes.
 * Ok: the {@link Principal} (the user and the token). Err: the `Response` to send as is, with GitLab's
 * status and body and a `WWW-Authenticate` challenge (see docs/embedding.md): 401 without a token or
 * with an unknown, expired or revoked one, 403 `insufficient_scope` without one of `scopes`, 403 for a
 * blocked owner, 500 when the store fails. Web-standard: any runtime with `Request` and `Response`.
 * Options no request could pass (an unknown or empty `scopes`, a realm with a control character)
 * throw at once, a `RangeError` or `TypeError`, as they do where a framework guard is built.
 *
 * @example
 * ```ts
 * import { authenticateRequest } from 'patkit/http'
 *
 * async function me(request: Request): Promise<Response> {
 *   const caller = await authenticateRequest(request, { authority, scopes: ['read_api', 'api'] })
 *   if (caller.isErr()) return caller.error
 *   return Response.json({ username: caller.value.user.username })
 * }
 * ```
 */
export function authenticateRequest<P extends string = string>(
  request: Request,
  options: GuardOptions<[request: Request], P>,
): ResultAsync<Principal, Response> {
  const realm = checkGuard(options)
  return new ResultAsync(
    guardRequest(request, queryUrl(request.url), options, realm, request).then((outcome) =>
      outcome.mapErr(toResponse),
    ),
  )
}
