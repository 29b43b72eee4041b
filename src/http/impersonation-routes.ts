import { err, ok, type Result } from 'neverthrow'
import type { Authority } from '../authority/create-authority.js'
import type { ImpersonationCreateRequest, ImpersonationState } from '../authority/impersonation-tokens.js'
import type { Principal } from '../authority/principal.js'
import type { ErrorOf, PatkitError } from '../domain/errors.js'
import { errorReply } from './error-response.js'
import { listParamsParser } from './list-params.js'
import { paginationHeaders } from './pagination-headers.js'
import type { BodyParams } from './request-body.js'
import { commaSeparatedToArray, optionalString, parseId } from './request-params.js'
import { error, json, message, noContent, type Reply } from './responses.js'
import { impersonationTokenJson } from './token-json.js'

/**
 * The impersonation token routes of GitLab's users API.
 *
 * @example
 * ```ts
 * import type { ImpersonationRouteName } from './impersonation-routes.js'
 * const name: ImpersonationRouteName = 'impersonation_list'
 * ```
 */
export type ImpersonationRouteName =
  | 'impersonation_list'
  | 'impersonation_create'
  | 'impersonation_get'
  | 'impersonation_revoke'

const NAMES: readonly string[] = [
  'impersonation_list',
  'impersonation_create',
  'impersonation_get',
  'impersonation_revoke',
] satisfies ImpersonationRouteName[]

/**
 * Whether a route is one of the impersonation token routes.
 *
 * @example
 * ```ts
 * import { isImpersonationRoute } from './impersonation-routes.js'
 * isImpersonationRoute('impersonation_get') // true
 * ```
 */
export function isImpersonationRoute(name: string): name is ImpersonationRouteName {
  return NAMES.includes(name)
}

const STATES: readonly string[] = ['all', 'active', 'inactive'] satisfies ImpersonationState[]

type InvalidParameter = ErrorOf<'invalid_parameter'>
const invalid = (parameter: string, reason: InvalidParameter['reason'] = 'invalid'): InvalidParameter => ({
  type: 'invalid_parameter',
  parameter,
  reason,
})

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

/**
 * The body as Grape declares it (`requires :name, type: String`; `optional :scopes, type:
 * Array[String], coerce_with: CommaSeparatedToArray`, no `values:`): only an absent `name` fails here.
 * A present `scopes` is coerced as GitLab coerces it, so `null` and `''` are no scopes and an empty
 * part stays, for the model to refuse; a `name` of `null` is present, and blank to the model.
 */
function parseCreate(body: BodyParams): Result<ImpersonationCreateRequest, InvalidParameter> {
  const name = body['name']
  if (name === undefined) return err(invalid('name', 'missing'))
  if (name !== null && typeof name !== 'string') return err(invalid('name'))
  const description = body['description']
  if (description !== undefined && description !== null && typeof description !== 'string') {
    return err(invalid('description'))
  }
  const expiresAt = optionalString(body, 'expires_at')
  if (expiresAt.isErr()) return err(expiresAt.error)
  const scopes = body['scopes']
  return ok({
    name: name ?? '',
    ...(scopes === undefined ? {} : { scopes: commaSeparatedToArray(scopes) }),
    ...(description === undefined ? {} : { description: description as string | null }),
    ...(expiresAt.value === undefined ? {} : { expiresAt: expiresAt.value }),
  })
}

/**
 * Serves one impersonation token route for an authenticated caller, with GitLab's order of checks:
 * the administrator check (403) comes before the parameters are validated (400), as GitLab's `before`
 * block runs before Grape's validation, then the user (404 `User Not Found`), then the token (404
 * `Impersonation Token Not Found`).
 *
 * @example
 * ```ts
 * import { serveImpersonationRoute } from './impersonation-routes.js'
 * declare const url: URL
 *
 * const reply = await serveImpersonationRoute(authority, 'impersonation_list', '2', undefined, principal, url, {}, undefined)
 * ```
 */
export async function serveImpersonationRoute(
  authority: Authority,
  name: ImpersonationRouteName,
  userSegment: string | undefined,
  tokenSegment: string | undefined,
  principal: Principal,
  url: URL,
  body: BodyParams,
  publicUrl: URL | undefined,
): Promise<Reply> {
  // Grape validates parameters after the `before` block's administrator check.
  const invalidFor = (e: PatkitError): Reply =>
    principal.user.admin ? errorReply(e) : message(403, '403 Forbidden')
  const userId = parseId(userSegment, 'user_id')
  if (userId.isErr()) return invalidFor(userId.error)
  const tokenId = tokenSegment === undefined ? ok(0) : parseId(tokenSegment, 'impersonation_token_id')
  if (tokenId.isErr()) return invalidFor(tokenId.error)
  switch (name) {
    case 'impersonation_list': {
      const state = url.searchParams.getAll('state').at(-1)
      const paging = new URLSearchParams()
      for (const key of ['page', 'per_page']) {
        const value = url.searchParams.getAll(key).at(-1)
        if (value !== undefined) paging.set(key, value)
      }
      const page = (await listParamsParser())(paging)
      if (page.isErr()) return invalidFor(page.error)
      if (state !== undefined && !STATES.includes(state)) {
        return principal.user.admin
          ? error(400, 'state does not have a valid value')
          : message(403, '403 Forbidden')
      }
      const listed = await authority.listImpersonationTokens(principal, userId.value, {
        state: (state ?? 'all') as ImpersonationState,
        page: page.value.page,
      })
      if (listed.isErr()) return fail(listed.error)
      const now = authority.now()
      return json(
        200,
        listed.value.items.map((t) => impersonationTokenJson(t, now, authority.release)),
        paginationHeaders(listed.value.pagination, url, publicUrl),
      )
    }
    case 'impersonation_create': {
      const input = parseCreate(body)
      if (input.isErr()) return invalidFor(input.error)
      const created = await authority.createImpersonationToken(principal, userId.value, input.value)
      if (created.isErr()) return fail(created.error)
      const { token, secret } = created.value
      return json(201, impersonationTokenJson(token, authority.now(), authority.release, secret))
    }
    case 'impersonation_get': {
      const found = await authority.getImpersonationToken(principal, userId.value, tokenId.value)
      return found.isErr()
        ? fail(found.error)
        : json(200, impersonationTokenJson(found.value, authority.now(), authority.release))
    }
    case 'impersonation_revoke': {
      const revoked = await authority.revokeImpersonationToken(principal, userId.value, tokenId.value)
      return revoked.isErr() ? fail(revoked.error) : noContent()
    }
  }
}
