import { err, ok } from 'neverthrow'
import type { Feature } from '../authority/core/release.js'
import { READ_SCOPES, SELF_ROTATE_SCOPES, WRITE_SCOPES } from '../authority/core/scope-policy.js'
import type { ResourceType } from '../domain/resource.js'
import { errorReply } from './error-response.js'
import { listParamsParser } from './list-params.js'
import { jsonTextPage } from './pagination-headers.js'
import { type PathInput, pathRoute } from './path-params.js'
import { grapeDate, parseId } from './request-params.js'
import { parseResourceTokenBody } from './resource-token-body.js'
import { resourceTokenJsonText } from './resource-token-json.js'
import { jsonText, noContent, type Reply } from './responses.js'
import { rotationReply } from './rotation-reply.js'
import type { CredentialsInput, RoutePermission, RouteRow } from './route.js'

const CREATE_PARAMS = ['name', 'description', 'scopes', 'expires_at', 'access_level']

// The release that brought each source type's list, create and revoke routes.
const INTRODUCED: Record<ResourceType, Feature> = {
  project: 'project_access_tokens',
  group: 'group_access_tokens',
}

// `:id` (an id or a full path) and `:token_id` as sent: the finders decide (GitLab's `token_id` is a
// String, so one that is no id finds no token, never 400).
const TOKENS_PATH = { id: 'string' } as const
const TOKEN_PATH = { id: 'string', token_id: 'string' } as const

/**
 * GitLab's project and group access token routes (lib/api/resource_access_tokens.rb and
 * resource_access_tokens/self_rotation.rb), for both source types. `self/rotate` comes before
 * `:token_id/rotate`, as GitLab mounts SelfRotation first.
 */
function rowsFor(type: ResourceType): RouteRow[] {
  const base = `/${type}s/:id/access_tokens`
  // `boundary_type: source_type.to_sym` (lib/api/resource_access_tokens.rb, fine-grained-pats.md §8.1).
  const on = (name: string): RoutePermission => ({ name, boundary: type, ref: 'id' })
  return [
    pathRoute({
      method: 'GET',
      path: base,
      pathParams: TOKENS_PATH,
      since: INTRODUCED[type],
      scopes: READ_SCOPES,
      permission: on('read_resource_access_token'),
      serve: (i) => list(type, i),
    }),
    pathRoute({
      method: 'POST',
      path: base,
      pathParams: TOKENS_PATH,
      since: INTRODUCED[type],
      permission: on('create_resource_access_token'),
      params: CREATE_PARAMS,
      scopes: WRITE_SCOPES,
      serve: (i) => create(type, i),
    }),
    {
      method: 'POST',
      path: `${base}/self/rotate`,
      since: 'resource_token_self_rotate',
      params: ['expires_at'],
      permission: on('rotate_resource_access_token'),
      scopes: SELF_ROTATE_SCOPES,
      caller: 'use_case',
      serve: (i) => rotate(type, i, true),
    },
    pathRoute({
      method: 'GET',
      path: `${base}/:token_id`,
      pathParams: TOKEN_PATH,
      since: 'resource_token_get',
      scopes: READ_SCOPES,
      permission: on('read_resource_access_token'),
      serve: (i) => get(type, i),
    }),
    pathRoute({
      method: 'DELETE',
      path: `${base}/:token_id`,
      pathParams: TOKEN_PATH,
      since: INTRODUCED[type],
      params: [],
      scopes: WRITE_SCOPES,
      permission: on('delete_resource_access_token'),
      serve: (i) => revoke(type, i),
    }),
    {
      method: 'POST',
      path: `${base}/:token_id/rotate`,
      since: 'resource_token_rotate',
      params: ['expires_at'],
      scopes: WRITE_SCOPES,
      permission: on('rotate_resource_access_token'),
      caller: 'use_case',
      serve: (i) => rotate(type, i, false),
    },
  ]
}

/** The rows of both source types. */
export const RESOURCE_TOKEN_ROUTES: readonly RouteRow[] = [...rowsFor('project'), ...rowsFor('group')]

async function list(
  type: ResourceType,
  { authority, principal, pathValues, url, publicUrl }: PathInput<typeof TOKENS_PATH>,
): Promise<Reply> {
  const params = (await listParamsParser())(url.searchParams)
  if (params.isErr()) return errorReply(params.error)
  const { filter, sort, page } = params.value
  const result = await authority.resources.list(
    principal,
    { type, id: pathValues.id },
    { filter, sort, page },
  )
  if (result.isErr()) return errorReply(result.error)
  const now = authority.now()
  const items = result.value.items.map((shown) =>
    resourceTokenJsonText(shown, now, authority.settings.release),
  )
  return jsonTextPage(items, result.value.pagination, url, publicUrl)
}

async function get(
  type: ResourceType,
  { authority, principal, pathValues }: PathInput<typeof TOKEN_PATH>,
): Promise<Reply> {
  const result = await authority.resources.get(principal, { type, id: pathValues.id }, pathValues.token_id)
  if (result.isErr()) return errorReply(result.error)
  return jsonText(200, resourceTokenJsonText(result.value, authority.now(), authority.settings.release))
}

async function create(
  type: ResourceType,
  { authority, principal, pathValues, params }: PathInput<typeof TOKENS_PATH>,
): Promise<Reply> {
  const request = parseResourceTokenBody(params)
  if (request.isErr()) return errorReply(request.error)
  const result = await authority.resources.create(principal, { type, id: pathValues.id }, request.value)
  if (result.isErr()) return errorReply(result.error)
  const { secret, ...shown } = result.value
  return jsonText(201, resourceTokenJsonText(shown, authority.now(), authority.settings.release, secret))
}

async function revoke(
  type: ResourceType,
  { authority, principal, pathValues }: PathInput<typeof TOKEN_PATH>,
): Promise<Reply> {
  const result = await authority.resources.revoke(principal, { type, id: pathValues.id }, pathValues.token_id)
  return result.isOk() ? noContent() : errorReply(result.error)
}

// `token_id` is a String: one that is no id finds no token (GitLab's `find_by_id`), never 400.
function tokenRef(path: Readonly<Record<string, string>>): number {
  return parseId(path['token_id'], 'token_id').unwrapOr(0)
}

/**
 * One authority call, as the personal access token rotation: a revoked token presented here is
 * reuse (its descendants are revoked) before anything else is looked at.
 */
async function rotate(
  type: ResourceType,
  { authority, credentials, headers, path, params, refusal, granular }: CredentialsInput,
  self: boolean,
): Promise<Reply> {
  const idempotencyKey = headers.get('idempotency-key')
  // A `use_case` row reads its path as sent: the rotation authenticates the caller itself.
  const rotated = await authority.resources.rotateRequest(
    { type, id: path['id'] ?? '' },
    {
      ...credentials,
      idempotencyKey,
      granular,
      ref: refusal === undefined ? ok(self ? 'self' : tokenRef(path)) : err(refusal),
      expiresAt: grapeDate(params, 'expires_at'),
    },
  )
  return rotationReply(rotated, idempotencyKey, ({ secret, replayed: _, ...shown }) =>
    resourceTokenJsonText(shown, authority.now(), authority.settings.release, secret),
  )
}
