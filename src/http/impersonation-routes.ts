import { hasFeature } from '../authority/core/release.js'
import { USER_READ_SCOPES, WRITE_SCOPES } from '../authority/core/scope-policy.js'
import type { ImpersonationState } from '../authority/impersonation/impersonation-tokens.js'
import type { PatkitError } from '../domain/errors.js'
import { errorReply } from './error-response.js'
import { listParamsParser, parsePage } from './list-params.js'
import { paginationHeaders } from './pagination-headers.js'
import { type PathInput, pathRoute } from './path-params.js'
import { lastValue } from './request-params.js'
import { error, json, message, noContent, type Reply } from './responses.js'
import type { CallerInput, RouteRow } from './route.js'
import { parseImpersonationBody } from './token-body.js'
import { impersonationTokenJson } from './token-json.js'
import { unknownGranularScopes } from './token-routes.js'
import { validationReply } from './validation-reply.js'

const USER_PATH = { user_id: 'id' } as const
const TOKEN_PATH = { user_id: 'id', id: { id: 'impersonation_token_id' } } as const

/**
 * The impersonation token routes of GitLab's users API, with GitLab's order of checks: the
 * administrator check (403) comes before the parameters are validated (400), as GitLab's `before`
 * block runs before Grape's validation, then the user (404 `User Not Found`), then the token (404
 * `Impersonation Token Not Found`).
 */
export const IMPERSONATION_ROUTES: readonly RouteRow[] = [
  pathRoute({
    method: 'GET',
    path: '/users/:user_id/impersonation_tokens',
    scopes: USER_READ_SCOPES,
    permission: { name: 'read_impersonation_token', boundary: 'instance' },
    pathParams: USER_PATH,
    refusePath: refuseParameter,
    serve: list,
  }),
  pathRoute({
    method: 'POST',
    path: '/users/:user_id/impersonation_tokens',
    params: ['name', 'scopes', 'description', 'expires_at', 'impersonation', 'granular_scopes'],
    scopes: WRITE_SCOPES,
    permission: { name: 'create_impersonation_token', boundary: 'instance' },
    pathParams: USER_PATH,
    refusePath: refuseParameter,
    serve: create,
  }),
  pathRoute({
    method: 'GET',
    path: '/users/:user_id/impersonation_tokens/:id',
    scopes: USER_READ_SCOPES,
    permission: { name: 'read_impersonation_token', boundary: 'instance' },
    pathParams: TOKEN_PATH,
    refusePath: refuseParameter,
    serve: get,
  }),
  pathRoute({
    method: 'DELETE',
    path: '/users/:user_id/impersonation_tokens/:id',
    params: [],
    scopes: WRITE_SCOPES,
    permission: { name: 'revoke_impersonation_token', boundary: 'instance' },
    pathParams: TOKEN_PATH,
    refusePath: refuseParameter,
    serve: revoke,
  }),
]

const STATES: readonly string[] = ['all', 'active', 'inactive'] satisfies ImpersonationState[]

/** Grape validates parameters after the `before` block's administrator check. */
function refuseParameter(input: CallerInput, e: PatkitError): Reply {
  return input.principal.user.admin ? errorReply(e) : message(403, '403 Forbidden')
}

function fail(e: PatkitError): Reply {
  switch (e.type) {
    case 'not_found':
      return message(404, e.entity === 'user' ? '404 User Not Found' : '404 Impersonation Token Not Found')
    case 'validation_failed':
    case 'invalid_expiry':
      return validationReply(400, e.message)
    default:
      return errorReply(e)
  }
}

async function list(input: PathInput<typeof USER_PATH>): Promise<Reply> {
  const { authority, principal, url, publicUrl } = input
  const userId = input.pathValues.user_id
  const state = lastValue(url.searchParams, 'state')
  const page = parsePage(url.searchParams, await listParamsParser())
  if (page.isErr()) return refuseParameter(input, page.error)
  if (state !== undefined && !STATES.includes(state)) {
    return principal.user.admin
      ? error(400, 'state does not have a valid value')
      : message(403, '403 Forbidden')
  }
  const listed = await authority.impersonation.list(principal, userId, {
    state: (state ?? 'all') as ImpersonationState,
    page: page.value,
  })
  if (listed.isErr()) return fail(listed.error)
  const now = authority.now()
  return json(
    200,
    listed.value.items.map((t) => impersonationTokenJson(t, now, authority.settings.release)),
    paginationHeaders(listed.value.pagination, url, publicUrl),
  )
}

async function create(input: PathInput<typeof USER_PATH>): Promise<Reply> {
  const { authority, principal, params } = input
  const userId = input.pathValues.user_id
  const granular = hasFeature('granular_tokens', authority.settings.release)
  if (!granular && params['granular_scopes'] !== undefined) return unknownGranularScopes()
  const request = parseImpersonationBody(params, granular)
  if (request.isErr()) return refuseParameter(input, request.error)
  const created = await authority.impersonation.create(principal, userId, request.value)
  if (created.isErr()) return fail(created.error)
  const { token, secret } = created.value
  return json(201, impersonationTokenJson(token, authority.now(), authority.settings.release, secret))
}

async function get(input: PathInput<typeof TOKEN_PATH>): Promise<Reply> {
  const { authority, principal } = input
  const { user_id: userId, id: tokenId } = input.pathValues
  const found = await authority.impersonation.get(principal, userId, tokenId)
  return found.isErr()
    ? fail(found.error)
    : json(200, impersonationTokenJson(found.value, authority.now(), authority.settings.release))
}

async function revoke(input: PathInput<typeof TOKEN_PATH>): Promise<Reply> {
  const { user_id: userId, id: tokenId } = input.pathValues
  const revoked = await input.authority.impersonation.revoke(input.principal, userId, tokenId)
  return revoked.isErr() ? fail(revoked.error) : noContent()
}
