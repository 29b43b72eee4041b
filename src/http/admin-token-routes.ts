import { err, ok } from 'neverthrow'
import type {
  AdminTokenRequestError,
  IdentifiedToken,
  TokenParameter,
} from '../authority/admin/admin-tokens.js'
import { WRITE_SCOPES } from '../authority/core/scope-policy.js'
import { invalidParameter } from '../domain/error-constructors.js'
import { errorReply } from './error-response.js'
import type { BodyParams } from './request-body.js'
import { json, noContent, type Reply } from './responses.js'
import type { CallerInput, RouteRow } from './route.js'
import { tokenJson } from './token-json.js'

/**
 * GitLab's admin token API (lib/api/admin/token.rb): a token found (`POST`) or revoked (`DELETE`) by
 * its value, for administrators. Both take `token` in the body or the query. Every kind patkit holds
 * is a personal access token to GitLab (personal, impersonation, project and group access tokens,
 * service account tokens), answered with the plain `PersonalAccessToken` entity.
 */
export const ADMIN_TOKEN_ROUTES: readonly RouteRow[] = [
  {
    method: 'POST',
    path: '/admin/token',
    since: 'admin_token_info',
    scopes: WRITE_SCOPES,
    permission: { name: 'read_any_token', boundary: 'instance' },
    serve: info,
  },
  {
    method: 'DELETE',
    path: '/admin/token',
    since: 'admin_token_revoke',
    scopes: WRITE_SCOPES,
    permission: { name: 'revoke_any_token', boundary: 'instance' },
    serve: revoke,
  },
]

// Grape's `requires :token, type: String`.
function tokenParameter(params: BodyParams): TokenParameter {
  const value = params['token']
  if (value === undefined || value === null) return err(invalidParameter('token', 'missing'))
  return typeof value === 'string' ? ok(value) : err(invalidParameter('token', 'invalid'))
}

function refused(e: AdminTokenRequestError): Reply {
  switch (e.type) {
    // `render_api_error!({ error: 'Not found' }, :not_found)`: a nested object.
    case 'not_found':
      return json(404, { message: { error: 'Not found' } })
    // `unsupported_token_type` (422, `rescue_from ArgumentError`) and `unsupported_revocation` (500:
    // `UnsupportedTokenError` is a StandardError the class does not rescue) are errorReply's.
    default:
      return errorReply(e)
  }
}

function entity(found: IdentifiedToken, input: CallerInput): Reply {
  const { authority } = input
  return json(200, tokenJson(found.token, authority.now(), authority.settings.release))
}

async function info(input: CallerInput): Promise<Reply> {
  const found = await input.authority.admin.tokenInfo(input.principal, tokenParameter(input.params))
  return found.isErr() ? refused(found.error) : entity(found.value, input)
}

async function revoke(input: CallerInput): Promise<Reply> {
  const revoked = await input.authority.admin.revokeToken(input.principal, tokenParameter(input.params))
  return revoked.isErr() ? refused(revoked.error) : noContent()
}
