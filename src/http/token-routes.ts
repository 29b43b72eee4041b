import { err, type Result } from 'neverthrow'
import { hasFeature } from '../authority/core/release.js'
import { READ_SCOPES, WRITE_SCOPES } from '../authority/core/scope-policy.js'
import type { GetError } from '../authority/personal/get-token.js'
import { SCOPES, USER_CREATABLE_SCOPES } from '../domain/scopes.js'
import type { Token } from '../domain/token.js'
import { settledResult } from '../store/settled.js'
import { parseAssociationsParams } from './associations.js'
import { errorReply } from './error-response.js'
import { listParamsParser } from './list-params.js'
import { jsonTextPage, paginationHeaders } from './pagination-headers.js'
import { type PathInput, pathRoute } from './path-params.js'
import { grapeDate, parseTokenRef } from './request-params.js'
import { groupAssociationJson, projectAssociationJson } from './resource-json.js'
import { error, json, jsonText, noContent, type Reply } from './responses.js'
import { rotationReply } from './rotation-reply.js'
import type { CallerInput, CredentialsInput, RouteRow } from './route.js'
import { parseCreateBody } from './token-body.js'
import { issuedTokenJson, tokenJsonText } from './token-json.js'
import { userWebBase } from './user-json.js'

// `granular_scopes` is known from its release on (`granular_tokens`, `granular_tokens_admin_create`);
// before it the create handler answers it as the pipeline answers any unknown parameter.
const CREATE_PARAMS = ['name', 'scopes', 'description', 'expires_at', 'granular_scopes']
const USER_PATH = { user_id: 'id' } as const
// GitLab's `route_setting :authorization` of each route (lib/api/personal_access_tokens.rb,
// personal_access_tokens/self_information.rb, self_rotation.rb; fine-grained-pats.md §8.1).
const READ = { name: 'read_personal_access_token', boundary: 'user' } as const
const REVOKE = { name: 'revoke_personal_access_token', boundary: 'user' } as const
const ROTATE = { name: 'rotate_personal_access_token', boundary: 'user' } as const

/**
 * GitLab's personal access token routes (lib/api/personal_access_tokens.rb and its `self_*` files,
 * and the create routes of lib/api/users.rb). `/self` is the `:id` segment, resolved by the use case.
 */
export const TOKEN_ROUTES: readonly RouteRow[] = [
  { method: 'GET', path: '/personal_access_tokens', scopes: READ_SCOPES, permission: READ, serve: list },
  // Any scope may read it (GitLab allows every scope on this class).
  {
    method: 'GET',
    path: '/personal_access_tokens/self/associations',
    since: 'token_associations',
    permission: READ,
    serve: associations,
  },
  { method: 'GET', path: '/personal_access_tokens/:id', permission: READ, serve: get },
  { method: 'DELETE', path: '/personal_access_tokens/:id', params: [], permission: REVOKE, serve: revoke },
  // The authority owns a rotation's order (replay before authentication): one call, `requests.rotateRequest`.
  {
    method: 'POST',
    path: '/personal_access_tokens/:id/rotate',
    params: ['expires_at'],
    permission: ROTATE,
    caller: 'use_case',
    serve: rotate,
  },
  pathRoute({
    method: 'POST',
    path: '/users/:user_id/personal_access_tokens',
    params: CREATE_PARAMS,
    scopes: WRITE_SCOPES,
    // An instance boundary: only an instance scope holding the permission reaches it (§8.1).
    permission: { name: 'create_personal_access_token', boundary: 'instance' },
    pathParams: USER_PATH,
    serve: createForUser,
  }),
  {
    method: 'POST',
    path: '/user/personal_access_tokens',
    params: CREATE_PARAMS,
    scopes: WRITE_SCOPES,
    permission: { name: 'create_personal_access_token', boundary: 'user' },
    serve: createSelf,
  },
]

async function list({ authority, principal, url, publicUrl }: CallerInput): Promise<Reply> {
  const params = (await listParamsParser())(url.searchParams)
  if (params.isErr()) return errorReply(params.error)
  const { filter, sort, page, userRef } = params.value
  const result = await authority.list(principal, {
    filter,
    sort,
    page,
    ...(userRef === undefined ? {} : { userRef }),
  })
  if (result.isErr()) return errorReply(result.error)
  const now = authority.now()
  const items = result.value.items.map((t) =>
    tokenJsonText(t, now, authority.settings.release, 'last_used_ips_list'),
  )
  return jsonTextPage(items, result.value.pagination, url, publicUrl)
}

// GitLab's `{ groups: paginate(load_groups), projects: paginate(load_projects) }`: each list paginated
// with the same page; the headers are the projects list's, the second `paginate` call's.
async function associations({ authority, principal, url, publicUrl }: CallerInput): Promise<Reply> {
  const params = parseAssociationsParams(
    url.searchParams,
    authority.settings.release,
    await listParamsParser(),
  )
  if (params.isErr()) return errorReply(params.error)
  const found = await authority.users.associations(principal, params.value)
  if (found.isErr()) return errorReply(found.error)
  const webBase = userWebBase(url, publicUrl)
  return json(
    200,
    {
      groups: found.value.groups.map((g) => groupAssociationJson(g, webBase)),
      projects: found.value.projects.map((p) => projectAssociationJson(p, webBase)),
    },
    paginationHeaders(found.value.projectsPage, url, publicUrl),
  )
}

// GET /self is the most frequent request there is: answered at once when `get` is (docs/benchmarks.md, target 3).
function get({ authority, principal, path }: CallerInput): Reply | Promise<Reply> {
  const ref = parseTokenRef(path['id'])
  if (ref.isErr()) return errorReply(ref.error)
  const ips = ref.value === 'self' ? 'last_used_ips_self' : 'last_used_ips'
  const answer = (result: Result<Token, GetError>): Reply =>
    result.isErr()
      ? errorReply(result.error)
      : // GET self does not show granular_scopes in the GitLab versions read (self_information.rb).
        jsonText(
          200,
          tokenJsonText(result.value, authority.now(), authority.settings.release, ips, ref.value !== 'self'),
        )
  const found = authority.get(principal, ref.value)
  const known = settledResult(found)
  return known === undefined ? Promise.resolve(found.then<Reply, never>(answer)) : answer(known)
}

async function revoke({ authority, principal, path }: CallerInput): Promise<Reply> {
  const ref = parseTokenRef(path['id'])
  if (ref.isErr()) return errorReply(ref.error)
  const result = await authority.revoke(principal, ref.value)
  if (result.isOk()) return noContent()
  return errorReply(result.error, ref.value === 'self' ? 'default' : 'revoke_by_id')
}

/**
 * One authority call: a retry (`Idempotency-Key`, the grace window) is replayed before
 * authentication; the pipeline's refusal (an unknown parameter) and an invalid id or `expires_at`
 * are answered after it (a revoked token presented to them is still reuse). Only a request the
 * first one could have been (no unknown parameter, a valid id) is looked up as a retry.
 */
async function rotate({
  authority,
  credentials,
  headers,
  path,
  params,
  refusal,
  granular,
}: CredentialsInput): Promise<Reply> {
  const ref = refusal === undefined ? parseTokenRef(path['id']) : err(refusal)
  const idempotencyKey = headers.get('idempotency-key')
  const rotated = await authority.requests.rotateRequest({
    ...credentials,
    idempotencyKey,
    granular,
    ref,
    expiresAt: grapeDate(params, 'expires_at'),
  })
  return rotationReply(rotated, idempotencyKey, (issued) =>
    JSON.stringify(issuedTokenJson(issued, authority.now(), authority.settings.release)),
  )
}

function createForUser(input: PathInput<typeof USER_PATH>): Promise<Reply> {
  return create(input, input.pathValues.user_id, SCOPES, 'granular_tokens_admin_create')
}

function createSelf(input: CallerInput): Promise<Reply> {
  return create(input, 'self', USER_CREATABLE_SCOPES, 'granular_tokens')
}

async function create(
  { authority, principal, params }: CallerInput,
  target: number | 'self',
  allowedScopes: readonly string[],
  granularFeature: 'granular_tokens' | 'granular_tokens_admin_create',
): Promise<Reply> {
  const granular = hasFeature(granularFeature, authority.settings.release)
  if (!granular && params['granular_scopes'] !== undefined) return unknownGranularScopes()
  const request = parseCreateBody(params, allowedScopes, granular)
  if (request.isErr()) return errorReply(request.error)
  const result = await authority.create(principal, target, request.value)
  if (result.isErr()) return errorReply(result.error, 'create')
  return json(201, issuedTokenJson(result.value, authority.now(), authority.settings.release))
}

/** Before its release `granular_scopes` is a parameter the route does not know (handler-core's answer). */
export function unknownGranularScopes(): Reply {
  return error(400, 'granular_scopes is not a known parameter')
}
