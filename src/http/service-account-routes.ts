import { err, ok, type Result, type ResultAsync } from 'neverthrow'
import { READ_SCOPES, WRITE_SCOPES } from '../authority/core/scope-policy.js'
import type {
  ServiceAccountError,
  ServiceAccountOrder,
  ServiceAccountRequest,
} from '../authority/service-accounts/service-accounts.js'
import { invalidParameter } from '../domain/error-constructors.js'
import { SCOPES } from '../domain/scopes.js'
import { GRAPE_FALSE_VALUES, GRAPE_TRUE_VALUES } from '../query/grape-coercions.js'
import { paginate } from '../query/pagination.js'
import type { User } from '../store/user.js'
import { errorReply } from './error-response.js'
import { listParamsParser, parsePage } from './list-params.js'
import { jsonTextPage, paginationHeaders } from './pagination-headers.js'
import { type PathInput, pathRoute } from './path-params.js'
import type { BodyParams } from './request-body.js'
import {
  grapeDate,
  grapeFailures,
  type InvalidParameter,
  lastValue,
  optionalString,
} from './request-params.js'
import { json, noContent, type Reply } from './responses.js'
import type { CallerInput, RouteRow } from './route.js'
import { parseCreateBody } from './token-body.js'
import { issuedTokenJson, tokenJsonText } from './token-json.js'
import { serviceAccountJson } from './user-json.js'

const ACCOUNT_PARAMS = ['name', 'username', 'email']
const TOKEN_PARAMS = ['name', 'scopes', 'description', 'expires_at']
const GROUP = '/groups/:id/service_accounts'
const TOKENS = `${GROUP}/:user_id/personal_access_tokens`
// `:id` is the group, an id or a full path, as the authority takes it.
const GROUP_PARAMS = { id: 'string' } as const
const ACCOUNT_PATH = { id: 'string', user_id: 'id' } as const
const TOKEN_PATH = { id: 'string', user_id: 'id', token_id: 'id' } as const

// The create routes declare no `params`: GitLab reads only the names it declares and ignores the
// rest (its spec sends `skip_owner_check` and expects 403, not 400).
/**
 * GitLab's service account routes (EE: ee/lib/api/service_accounts.rb, group_service_accounts.rb):
 * the instance's accounts (administrators), a top-level group's accounts and their personal access
 * tokens (the group's Owners and administrators). `PATCH` is not served (the pipeline has no PATCH).
 */
export const SERVICE_ACCOUNT_ROUTES: readonly RouteRow[] = [
  {
    method: 'POST',
    path: '/service_accounts',
    since: 'service_accounts',
    scopes: WRITE_SCOPES,
    permission: { name: 'create_service_account', boundary: 'instance' },
    serve: createInstanceAccount,
  },
  {
    method: 'GET',
    path: '/service_accounts',
    since: 'service_accounts_list',
    scopes: READ_SCOPES,
    permission: { name: 'read_service_account', boundary: 'instance' },
    serve: listInstanceAccounts,
  },
  pathRoute({
    method: 'POST',
    path: GROUP,
    since: 'group_service_accounts',
    scopes: WRITE_SCOPES,
    permission: { name: 'create_service_account', boundary: 'group', ref: 'id' },
    pathParams: GROUP_PARAMS,
    serve: createGroupAccount,
  }),
  pathRoute({
    method: 'GET',
    path: GROUP,
    since: 'group_service_accounts_list',
    scopes: READ_SCOPES,
    permission: { name: 'read_service_account', boundary: 'group', ref: 'id' },
    pathParams: GROUP_PARAMS,
    serve: listGroupAccounts,
  }),
  pathRoute({
    method: 'DELETE',
    path: `${GROUP}/:user_id`,
    since: 'group_service_accounts_list',
    params: ['hard_delete'],
    scopes: WRITE_SCOPES,
    permission: { name: 'delete_service_account', boundary: 'group', ref: 'id' },
    pathParams: ACCOUNT_PATH,
    refusePath: refusedWrite,
    serve: deleteGroupAccount,
  }),
  pathRoute({
    method: 'GET',
    path: TOKENS,
    since: 'group_service_account_tokens_list',
    scopes: READ_SCOPES,
    permission: { name: 'read_service_account_personal_access_token', boundary: 'group', ref: 'id' },
    pathParams: ACCOUNT_PATH,
    refusePath: refusedRead,
    serve: listTokens,
  }),
  pathRoute({
    method: 'POST',
    path: TOKENS,
    since: 'group_service_accounts',
    params: TOKEN_PARAMS,
    scopes: WRITE_SCOPES,
    permission: { name: 'create_service_account_personal_access_token', boundary: 'group', ref: 'id' },
    pathParams: ACCOUNT_PATH,
    refusePath: refusedWrite,
    serve: createToken,
  }),
  pathRoute({
    method: 'DELETE',
    path: `${TOKENS}/:token_id`,
    since: 'group_service_account_tokens_list',
    params: [],
    scopes: WRITE_SCOPES,
    permission: { name: 'revoke_service_account_personal_access_token', boundary: 'group', ref: 'id' },
    pathParams: TOKEN_PATH,
    refusePath: refusedWrite,
    serve: revokeToken,
  }),
  pathRoute({
    method: 'POST',
    path: `${TOKENS}/:token_id/rotate`,
    since: 'group_service_accounts',
    params: ['expires_at'],
    scopes: WRITE_SCOPES,
    permission: { name: 'rotate_service_account_personal_access_token', boundary: 'group', ref: 'id' },
    pathParams: TOKEN_PATH,
    refusePath: refusedWrite,
    serve: rotateToken,
  }),
]

/**
 * A request with an invalid parameter, answered in GitLab's order: the route's `before` checks
 * (scope, group, permission) first, then the parameter (Grape validates after them).
 */
async function refused(
  input: CallerInput,
  error: InvalidParameter,
  groupRef: string | null,
  access: 'read' | 'write',
): Promise<Reply> {
  const allowed = await input.authority.serviceAccounts.access(input.principal, groupRef, access)
  return errorReply(allowed.isErr() ? allowed.error : error, 'users')
}

// patkit keeps no email: the entity shows the address GitLab generates, on the host clients see.
function accounts(input: CallerInput, users: readonly User[]): Record<string, unknown>[] {
  const host = (input.publicUrl ?? input.url).hostname
  return users.map((user) => serviceAccountJson(user, host))
}

/**
 * `name`, `username` and `email` (String, optional). patkit keeps no email addresses, so a given
 * `email` is checked and not kept.
 */
function accountBody(body: BodyParams): Result<ServiceAccountRequest, InvalidParameter> {
  const failures: InvalidParameter[] = []
  const values: Record<string, string> = {}
  for (const name of ACCOUNT_PARAMS) {
    const value = optionalString(body, name)
    if (value.isErr()) failures.push(value.error)
    else if (value.value !== undefined) values[name] = value.value
  }
  const checked = grapeFailures(failures)
  if (checked.isErr()) return err(checked.error)
  return ok({
    ...(values['name'] === undefined ? {} : { name: values['name'] }),
    ...(values['username'] === undefined ? {} : { username: values['username'] }),
  })
}

/** `order_by` (`id`, `username`; default `id`) and `sort` (`asc`, `desc`; default `desc`). */
function accountOrder(params: URLSearchParams): Result<ServiceAccountOrder, InvalidParameter> {
  const orderBy = lastValue(params, 'order_by')
  if (orderBy !== undefined && orderBy !== 'id' && orderBy !== 'username') {
    return err(invalidParameter('order_by', 'not_allowed_value'))
  }
  const sort = lastValue(params, 'sort')
  if (sort !== undefined && sort !== 'asc' && sort !== 'desc') {
    return err(invalidParameter('sort', 'not_allowed_value'))
  }
  return ok({ ...(orderBy === undefined ? {} : { orderBy }), ...(sort === undefined ? {} : { sort }) })
}

async function listed(
  input: CallerInput,
  groupRef: string | null,
  list: (order: ServiceAccountOrder) => ResultAsync<readonly User[], ServiceAccountError>,
): Promise<Reply> {
  const { url, publicUrl } = input
  const order = accountOrder(url.searchParams)
  if (order.isErr()) return refused(input, order.error, groupRef, 'read')
  const page = parsePage(url.searchParams, await listParamsParser())
  if (page.isErr()) return refused(input, page.error, groupRef, 'read')
  const found = await list(order.value)
  if (found.isErr()) return errorReply(found.error, 'users')
  const pagination = paginate(found.value.length, page.value)
  const items = found.value.slice(pagination.offset, pagination.offset + pagination.perPage)
  return json(200, accounts(input, items), paginationHeaders(pagination, url, publicUrl))
}

// An invalid path id is refused after the group's checks, as any parameter; `pathValues` is not
// filled then, so the group is read from the path.
function refusedRead(input: CallerInput, error: InvalidParameter): Promise<Reply> {
  return refused(input, error, input.path['id'] ?? '', 'read')
}

function refusedWrite(input: CallerInput, error: InvalidParameter): Promise<Reply> {
  return refused(input, error, input.path['id'] ?? '', 'write')
}

async function createInstanceAccount(input: CallerInput): Promise<Reply> {
  const request = accountBody(input.params)
  if (request.isErr()) return refused(input, request.error, null, 'write')
  const created = await input.authority.serviceAccounts.create(input.principal, request.value)
  if (created.isErr()) return errorReply(created.error, 'users')
  return json(201, accounts(input, [created.value])[0])
}

function listInstanceAccounts(input: CallerInput): Promise<Reply> {
  return listed(input, null, (order) => input.authority.serviceAccounts.list(input.principal, order))
}

async function createGroupAccount(input: PathInput<typeof GROUP_PARAMS>): Promise<Reply> {
  const group = input.pathValues.id
  const request = accountBody(input.params)
  if (request.isErr()) return refused(input, request.error, group, 'write')
  const created = await input.authority.serviceAccounts.createInGroup(input.principal, group, request.value)
  if (created.isErr()) return errorReply(created.error, 'users')
  return json(201, accounts(input, [created.value])[0])
}

function listGroupAccounts(input: PathInput<typeof GROUP_PARAMS>): Promise<Reply> {
  const group = input.pathValues.id
  return listed(input, group, (order) =>
    input.authority.serviceAccounts.listInGroup(input.principal, group, order),
  )
}

// Grape's Boolean: true, false, their words as text in any case; anything else `hard_delete is invalid`.
function hardDelete(body: BodyParams): Result<boolean, InvalidParameter> {
  const value = body['hard_delete']
  if (value === undefined || value === null || value === '') return ok(false)
  if (typeof value === 'boolean') return ok(value)
  const text = String(value).toLowerCase()
  if ((GRAPE_TRUE_VALUES as readonly string[]).includes(text)) return ok(true)
  if ((GRAPE_FALSE_VALUES as readonly string[]).includes(text)) return ok(false)
  return err(invalidParameter('hard_delete', 'invalid'))
}

async function deleteGroupAccount(input: PathInput<typeof ACCOUNT_PATH>): Promise<Reply> {
  const { id: group, user_id: userId } = input.pathValues
  const hard = hardDelete(input.params)
  if (hard.isErr()) return refused(input, hard.error, group, 'write')
  const deleted = await input.authority.serviceAccounts.deleteFromGroup(input.principal, group, userId, {
    hardDelete: hard.value,
  })
  return deleted.isErr() ? errorReply(deleted.error, 'users') : noContent()
}

async function listTokens(input: PathInput<typeof ACCOUNT_PATH>): Promise<Reply> {
  const { authority, principal, url, publicUrl } = input
  const { id: group, user_id: userId } = input.pathValues
  const params = (await listParamsParser())(url.searchParams)
  if (params.isErr()) return refused(input, params.error, group, 'read')
  const { filter, sort, page } = params.value
  const result = await authority.serviceAccounts.listTokens(principal, group, userId, {
    filter,
    sort,
    page,
  })
  if (result.isErr()) return errorReply(result.error, 'users')
  const now = authority.now()
  const items = result.value.items.map((t) =>
    tokenJsonText(t, now, authority.settings.release, 'last_used_ips_list'),
  )
  return jsonTextPage(items, result.value.pagination, url, publicUrl)
}

async function createToken(input: PathInput<typeof ACCOUNT_PATH>): Promise<Reply> {
  const { authority, principal } = input
  const { id: group, user_id: userId } = input.pathValues
  const request = parseCreateBody(input.params, SCOPES)
  if (request.isErr()) return refused(input, request.error, group, 'write')
  const created = await authority.serviceAccounts.createToken(principal, group, userId, request.value)
  // GitLab's `render_api_error!(message, :unprocessable_entity)`: the model's message, bare, 422.
  if (created.isErr()) return errorReply(created.error, 'create')
  return json(201, issuedTokenJson(created.value, authority.now(), authority.settings.release))
}

async function revokeToken(input: PathInput<typeof TOKEN_PATH>): Promise<Reply> {
  const { id: group, user_id: userId, token_id: tokenId } = input.pathValues
  const revoked = await input.authority.serviceAccounts.revokeToken(input.principal, group, userId, tokenId)
  return revoked.isErr() ? errorReply(revoked.error, 'users') : noContent()
}

async function rotateToken(input: PathInput<typeof TOKEN_PATH>): Promise<Reply> {
  const { authority, principal } = input
  const { id: group, user_id: userId, token_id: tokenId } = input.pathValues
  const expiresAt = grapeDate(input.params, 'expires_at')
  if (expiresAt.isErr()) return refused(input, expiresAt.error, group, 'write')
  const rotated = await authority.serviceAccounts.rotateToken(
    principal,
    group,
    userId,
    tokenId,
    expiresAt.value === undefined ? {} : { expiresAt: expiresAt.value },
  )
  if (rotated.isErr()) return errorReply(rotated.error, 'users')
  return json(200, issuedTokenJson(rotated.value, authority.now(), authority.settings.release))
}
