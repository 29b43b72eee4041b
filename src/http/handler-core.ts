import type { Result } from 'neverthrow'
import type { Principal } from '../authority/core/principal.js'
import { hasFeature } from '../authority/core/release.js'
import type { Authority } from '../authority/create-authority.js'
import type { PrincipalError, RequestCredentials } from '../authority/requests/request-principal.js'
import { featureUnavailable, invalidParameter, unauthenticated } from '../domain/error-constructors.js'
import { settledResult } from '../store/settled.js'
import type { HandlerOptions } from './create-handler.js'
import { presentedSecret, sudoIdentifier } from './credentials.js'
import { errorReply } from './error-response.js'
import { parseForm } from './form-params.js'
import { granularRefusal, granularRequirement } from './granular-check.js'
import type { IncomingRequest } from './incoming.js'
import { isMalformedAuthorization, isMalformedUrl, MALFORMED } from './malformed-strings.js'
import { parsePathParams } from './path-params.js'
import { type BodyParams, DEFAULT_BODY_LIMIT, readBodyParams } from './request-body.js'
import { type InvalidParameter, unknownParameter } from './request-params.js'
import { error, message, type Reply } from './responses.js'
import type { RouteRow } from './route.js'
import { type RouteTable, routeTable } from './route-table.js'
import { ROUTES } from './routes.js'

/**
 * The handler's logic, between a request view and a {@link Reply}: `createHandler` wraps it into a
 * web-standard `(Request) => Promise<Response>`, and `createNodeListener` serves it on node:http
 * directly from the `IncomingMessage`. Both are built from the authority, so neither has to find the
 * other's core. An answer known at once is returned as it is, not in a promise; it never throws (a
 * failure is GitLab's 500).
 */
export type HandlerCore = (request: IncomingRequest) => Reply | Promise<Reply>

/**
 * The start-up error of the GitLab HTTP binding over an authority with string user ids.
 */
export const STRING_USER_IDS_REFUSED =
  "patkit/http: GitLab's API has integer user ids, and this authority has userIdType 'string'; " +
  'createHandler and createNodeListener serve GitLab emulation only. Guard your own routes with ' +
  'authenticateRequest and call the authority from them (docs/embedding.md, "String user ids")'

const NOT_FOUND: Reply = Object.freeze(error(404, '404 Not Found'))
const INTERNAL_ERROR: Reply = Object.freeze(message(500, '500 Internal Server Error'))
const NO_PARAMS: BodyParams = Object.freeze({})
const NO_PATH_VALUES: Readonly<Record<string, string | number>> = Object.freeze({})
const READ = Object.freeze({ write: false })
const WRITE = Object.freeze({ write: true })

/** An unknown parameter's refusal, its name shortened so a hostile 60 KB key is not echoed back whole. */
function unknownParameterError(name: string): InvalidParameter {
  return invalidParameter(name.length > 64 ? `${name.slice(0, 64)}…` : name, 'unknown')
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
 * Serves GitLab's personal access token API over an authority (see `createHandler`): every request
 * goes through one pipeline, in GitLab's order:
 *
 * 1. target: a malformed URL or `Authorization` header (400), the base path, the route table (404;
 *    405 with `Allow`), the route's release gate (404), all before authentication;
 * 2. credentials: the body of a POST or DELETE is read, the token and `sudo` taken where GitLab takes
 *    them;
 * 3. caller: `authority.requests.requestPrincipal` authenticates the token (expiry, revocation, Admin Mode, a
 *    blocked owner) and applies `sudo`; a route that needs a token refuses a request without one
 *    (401), then an unknown body parameter (400);
 * 4. the route's handler, which validates its parameters and calls its use case.
 *
 * A rotation's use case authenticates the caller itself (`caller: 'use_case'`, one authority call
 * whose replay comes before authentication). Status codes and bodies are GitLab's, byte for byte; an
 * answer to HEAD is the GET answer without its body; a throw is GitLab's 500.
 *
 * @throws {TypeError} {@link STRING_USER_IDS_REFUSED} for an authority with `userIdType: 'string'`:
 * GitLab's clients read `user_id` and `/users/:id` as integers, so a string there would break them.
 */
export function handlerCore(authority: Authority, options: HandlerOptions = {}): HandlerCore {
  if (authority.settings.userIdType === 'string') throw new TypeError(STRING_USER_IDS_REFUSED)
  const basePath = (options.basePath ?? '/api/v4').replace(/\/+$/, '')
  const publicUrl = options.publicUrl === undefined ? undefined : new URL(options.publicUrl)
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT
  const { hookTester } = options
  const table = routeTable(ROUTES)

  // The pipeline waits only where it must (a body to read, an authentication or a use case that goes
  // to the store): a request whose every step is known at once (GET /self on a store that holds the
  // token in memory) is answered without a microtask turn in between (docs/benchmarks.md, target 3).
  function handle(request: IncomingRequest, method: string): Reply | Promise<Reply> {
    const url = request.parsedUrl ?? new URL(request.url)
    const target = targetOf(table, basePath, authority, request, url, method)
    if (!('row' in target)) return target
    if (target.row.method === 'GET') return withParams(request, url, target, NO_PARAMS, NO_PARAMS)
    return readBodyParams(request, bodyLimit).then((read) =>
      read.isErr() ? read.error : withParams(request, url, target, read.value, withQuery(url, read.value)),
    )
  }

  function withParams(
    request: IncomingRequest,
    url: URL,
    { row, path }: Target,
    body: BodyParams,
    params: BodyParams,
  ): Reply | Promise<Reply> {
    const credentials: RequestCredentials = {
      secret: presentedSecret(request, url, body),
      sudo: sudoIdentifier(request, url, body),
      ip: request.clientIp ?? null,
    }
    // Only body names are checked: an unknown query parameter is ignored on every route, as on GET.
    const unknown = row.params === undefined ? undefined : unknownParameter(body, row.params)
    if (row.caller === 'use_case') {
      const refusal = unknown === undefined ? undefined : unknownParameterError(unknown)
      const headers = request.headers
      const granular = granularRequirement(row, path)
      return row.serve({ authority, url, path, params, publicUrl, credentials, headers, refusal, granular })
    }
    const serve = (caller: Result<Principal | null, PrincipalError>): Reply | Promise<Reply> => {
      if (caller.isErr()) return errorReply(caller.error)
      const principal = caller.value
      // GitLab's granular authorization, once the caller is known: a legacy token passes at once unless
      // a top-level group enforces fine-grained tokens (answered without a promise when none does).
      if (principal === null) return route(principal)
      const allowed = authority.requests.authorizeGranular(principal, granularRequirement(row, path))
      if (!(allowed instanceof Promise))
        return allowed.isOk() ? route(principal) : granularRefusal(allowed.error)
      return allowed.then((a) => (a.isOk() ? route(principal) : granularRefusal(a.error)))
    }
    const route = (principal: Principal | null): Reply | Promise<Reply> => {
      const parsed = parsePathParams(row.pathParams, path)
      const pathValues = parsed.isOk() ? parsed.value : NO_PATH_VALUES
      if (row.caller === 'optional') {
        const input = { authority, url, path, params, publicUrl, principal, pathValues, hookTester }
        if (parsed.isErr()) return row.refusePath?.(input, parsed.error) ?? errorReply(parsed.error)
        return row.serve(input)
      }
      // GitLab's `authenticate!`.
      if (principal === null) return errorReply(unauthenticated('missing'))
      if (unknown !== undefined) return errorReply(unknownParameterError(unknown))
      const input = { authority, url, path, params, publicUrl, principal, pathValues, hookTester }
      if (parsed.isErr()) return row.refusePath?.(input, parsed.error) ?? errorReply(parsed.error)
      return row.serve(input)
    }
    const caller = authority.requests.requestPrincipal(credentials, row.method === 'GET' ? READ : WRITE)
    const known = settledResult(caller)
    return known === undefined ? Promise.resolve(caller.then<Reply, never>(serve)) : serve(known)
  }

  // Only a bug or a broken store implementation can throw or reject: answered like GitLab's 500.
  const failed = () => INTERNAL_ERROR
  // A HEAD answer has the headers of the GET answer and never a body, whatever the outcome.
  const headAnswer = (reply: Reply): Reply => ({ ...reply, body: null })
  const { onRefusal } = options
  // The refusal's typed error to the embedder's hook (the fake's journal), as the answer is made.
  const reported = (reply: Reply): Reply => {
    if (onRefusal !== undefined && reply.refusal !== undefined) {
      try {
        onRefusal(reply.refusal)
      } catch {
        // A hook's failure never changes the answer.
      }
    }
    return reply
  }
  return (request) => {
    const method = request.method.toUpperCase()
    let answer: Reply | Promise<Reply>
    try {
      answer = handle(request, method)
    } catch {
      answer = INTERNAL_ERROR
    }
    if (!(answer instanceof Promise)) return reported(method === 'HEAD' ? headAnswer(answer) : answer)
    const settled = answer.then(undefined, failed)
    return (method === 'HEAD' ? settled.then(headAnswer) : settled).then(reported)
  }
}

/** A request's route: the row that serves it and its path parameters. */
interface Target {
  readonly row: RouteRow
  readonly path: Readonly<Record<string, string>>
}

/** The pipeline's first step: the route a request is for, or the answer that refuses it before authentication. */
function targetOf(
  table: RouteTable,
  basePath: string,
  authority: Authority,
  request: IncomingRequest,
  url: URL,
  method: string,
): Target | Reply {
  // GitLab refuses a null byte or invalid UTF-8 in a Rack middleware, before routing: so does
  // patkit, before any store sees the value (PostgreSQL would fail on it with a 500).
  const { pathname } = url
  if (
    isMalformedUrl(pathname, url.search) ||
    isMalformedAuthorization(request.headers.get('authorization'))
  ) {
    return MALFORMED
  }
  if (!pathname.startsWith(basePath) || pathname.charCodeAt(basePath.length) !== 0x2f) return NOT_FOUND
  const match = table.match(method, pathname.slice(basePath.length))
  if (match.kind === 'not_found') return NOT_FOUND
  if (match.kind === 'method_not_allowed') return error(405, '405 Method Not Allowed', { allow: match.allow })
  // A route of a later GitLab is no route at all: 404 before authentication.
  if (match.row.since !== undefined && !hasFeature(match.row.since, authority.settings.release)) {
    return { ...NOT_FOUND, refusal: featureUnavailable(match.row.since, authority.settings.release) }
  }
  return match
}
