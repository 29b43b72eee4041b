import { ok } from 'neverthrow'
import { USER_READ_SCOPES, WRITE_SCOPES } from '../authority/core/scope-policy.js'
import type { ImpersonationState } from '../authority/impersonation/impersonation-tokens.js'
import type { PatkitError } from '../domain/errors.js'
import { errorReply } from './error-response.js'
import { listParamsParser, parsePage } from './list-params.js'
import { paginationHeaders } from './pagination-headers.js'
import { lastValue, parseId } from './request-params.js'
import { error, json, message, noContent, type Reply } from './responses.js'
import type { CallerInput, RouteRow } from './route.js'
import { parseImpersonationBody } from './token-body.js'
import { impersonationTokenJson } from './token-json.js'

/**
 * The impersonation token routes of GitLab's users API, with GitLab's order of checks: the
 * administrator check (403) comes before the parameters are validated (400), as GitLab's `before`
 * block runs before Grape's validation, then the user (404 `User Not Found`), then the token (404
 * `Impersonation Token Not Found`).
 */
export const IMPERSONATION_ROUTES: readonly RouteRow[] = [
  {
    method: 'GET',
    path: '/users/:user_id/impersonation_tokens',
    scopes: USER_READ_SCOPES,
    serve: (input) => served(input, list),
  },
  {
    method: 'POST',
    path: '/users/:user_id/impersonation_tokens',
    params: ['name', 'scopes', 'description', 'expires_at', 'impersonation'],
    scopes: WRITE_SCOPES,
    serve: (input) => served(input, create),
  },
  {
    method: 'GET',
    path: '/users/:user_id/impersonation_tokens/:id',
    scopes: USER_READ_SCOPES,
    serve: (input) => served(input, get),
  },
  {
    method: 'DELETE',
    path: '/users/:user_id/impersonation_tokens/:id',
    params: [],
    scopes: WRITE_SCOPES,
    serve: (input) => served(input, revoke),
  },
]

const STATES: readonly string[] = ['all', 'active', 'inactive'] satisfies ImpersonationState[]

/** What each route gets: its input, its ids checked, and how a parameter error is answered. */
interface Checked {
  readonly input: CallerInput
  readonly userId: number
  readonly tokenId: number
  /** Grape validates parameters after the `before` block's administrator check. */
  readonly refuseParameter: (e: PatkitError) => Reply
}

function served(input: CallerInput, route: (checked: Checked) => Promise<Reply>): Promise<Reply> {
  const refuseParameter = (e: PatkitError): Reply =>
    input.principal.user.admin ? errorReply(e) : message(403, '403 Forbidden')
  const userId = parseId(input.path['user_id'], 'user_id')
  if (userId.isErr()) return Promise.resolve(refuseParameter(userId.error))
  const tokenSegment = input.path['id']
  const tokenId = tokenSegment === undefined ? ok(0) : parseId(tokenSegment, 'impersonation_token_id')
  if (tokenId.isErr()) return Promise.resolve(refuseParameter(tokenId.error))
  return route({ input, userId: userId.value, tokenId: tokenId.value, refuseParameter })
}

// Rails' human attribute names in the model's full messages, back to the attributes they name.
const ATTRIBUTES: readonly (readonly [string, string])[] = [
  ['Expiration date ', 'expires_at'],
  ['Expires at ', 'expires_at'],
  ['Description ', 'description'],
  ['Scopes ', 'scopes'],
  ['Name ', 'name'],
]

/**
 * GitLab's `render_validation_error!`: 400 with the model's errors by attribute,
 * `{"message":{"scopes":["can't be blank"]}}`.
 */
function validationReply(fullMessage: string): Reply {
  for (const [prefix, attribute] of ATTRIBUTES) {
    if (fullMessage.startsWith(prefix)) {
      return json(400, { message: { [attribute]: [fullMessage.slice(prefix.length)] } })
    }
  }
  return json(400, { message: { base: [fullMessage] } })
}

function fail(e: PatkitError): Reply {
  switch (e.type) {
    case 'not_found':
      return message(404, e.entity === 'user' ? '404 User Not Found' : '404 Impersonation Token Not Found')
    case 'validation_failed':
    case 'invalid_expiry':
      return validationReply(e.message)
    default:
      return errorReply(e)
  }
}

async function list({ input, userId, refuseParameter }: Checked): Promise<Reply> {
  const { authority, principal, url, publicUrl } = input
  const state = lastValue(url.searchParams, 'state')
  const page = parsePage(url.searchParams, await listParamsParser())
  if (page.isErr()) return refuseParameter(page.error)
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
    listed.value.items.map((t) => impersonationTokenJson(t, now, authority.release)),
    paginationHeaders(listed.value.pagination, url, publicUrl),
  )
}

async function create({ input, userId, refuseParameter }: Checked): Promise<Reply> {
  const { authority, principal, params } = input
  const request = parseImpersonationBody(params)
  if (request.isErr()) return refuseParameter(request.error)
  const created = await authority.impersonation.create(principal, userId, request.value)
  if (created.isErr()) return fail(created.error)
  const { token, secret } = created.value
  return json(201, impersonationTokenJson(token, authority.now(), authority.release, secret))
}

async function get({ input, userId, tokenId }: Checked): Promise<Reply> {
  const { authority, principal } = input
  const found = await authority.impersonation.get(principal, userId, tokenId)
  return found.isErr()
    ? fail(found.error)
    : json(200, impersonationTokenJson(found.value, authority.now(), authority.release))
}

async function revoke({ input, userId, tokenId }: Checked): Promise<Reply> {
  const revoked = await input.authority.impersonation.revoke(input.principal, userId, tokenId)
  return revoked.isErr() ? fail(revoked.error) : noContent()
}
