import type { Principal } from '../authority/core/principal.js'
import { USER_READ_SCOPES } from '../authority/core/scope-policy.js'
import { unauthenticated } from '../domain/error-constructors.js'
import { paginate } from '../query/pagination.js'
import type { User } from '../store/user.js'
import { errorReply } from './error-response.js'
import { listParamsParser } from './list-params.js'
import { paginationHeaders } from './pagination-headers.js'
import { json, type Reply } from './responses.js'
import type { CallerInput, RouteRow } from './route.js'
import { type UserEntity, userJson, userWebBase } from './user-json.js'
import { grapeBoolean, parseUsersParams } from './users-params.js'

/**
 * The users API routes clients call around tokens: `GET /user` (the caller), `GET /users/:id` and
 * `GET /users?username=`. `GET /users` and `GET /users/:id` also answer a request without a token
 * (GitLab's `current_user` is nil, and each route decides); `GET /user` requires one. Administrators
 * get GitLab's admin entities (`is_admin` and the other admin-only fields), others the public ones.
 */
export const USER_ROUTES: readonly RouteRow[] = [
  {
    method: 'GET',
    path: '/user',
    caller: 'optional',
    scopes: USER_READ_SCOPES,
    permission: { name: 'read_user', boundary: 'user' },
    serve: currentUser,
  },
  // The list is `User: Read` at the instance (fine-grained-pats.md §8.1).
  {
    method: 'GET',
    path: '/users',
    caller: 'optional',
    scopes: USER_READ_SCOPES,
    permission: { name: 'read_user', boundary: 'instance' },
    serve: users,
  },
  // Digits only, GitLab's `requirements: { id: /[0-9]*/ }`: `/users/1ASDF` is no route (404).
  {
    method: 'GET',
    path: '/users/:id',
    requirements: { id: /^\d+$/ },
    caller: 'optional',
    scopes: USER_READ_SCOPES,
    permission: { name: 'read_user', boundary: 'user' },
    serve: user,
  },
]

type UsersInput = CallerInput<Principal | null>

function renderer({ principal, url, publicUrl }: UsersInput) {
  const viewer = principal?.user ?? null
  return (user: User, entity: UserEntity, withCustomAttributes = false) =>
    userJson(user, { entity, viewer, webBase: userWebBase(url, publicUrl), withCustomAttributes })
}

async function currentUser(input: UsersInput): Promise<Reply> {
  const { authority, principal } = input
  if (principal === null) return errorReply(unauthenticated())
  const me = await authority.users.current(principal)
  if (me.isErr()) return errorReply(me.error)
  // GitLab picks the entity by `admin?` here, not by the admin-mode-aware check of the other routes.
  return json(200, renderer(input)(me.value, me.value.admin ? 'with_admin' : 'public'))
}

async function user(input: UsersInput): Promise<Reply> {
  const { authority, principal, url, path } = input
  const custom = grapeBoolean(url.searchParams, 'with_custom_attributes')
  if (custom.isErr()) return errorReply(custom.error)
  // Ids too large to be exact become a number no user has.
  const found = await authority.users.find(principal, Number(path['id']))
  if (found.isErr()) return errorReply(found.error, 'users')
  const entity = principal?.user.admin === true ? 'details_with_admin' : 'user'
  return json(200, renderer(input)(found.value, entity, custom.value === true))
}

async function users(input: UsersInput): Promise<Reply> {
  const { authority, principal, url, publicUrl } = input
  const params = parseUsersParams(url.searchParams, await listParamsParser())
  if (params.isErr()) return errorReply(params.error)
  const found = await authority.users.findMany(principal, params.value.query)
  if (found.isErr()) return errorReply(found.error, 'users')
  const pagination = paginate(found.value.length, params.value.page)
  const page = found.value.slice(pagination.offset, pagination.offset + pagination.perPage)
  const render = renderer(input)
  const entity = principal?.user.admin === true ? 'with_admin' : 'basic'
  return json(
    200,
    page.map((u) => render(u, entity, params.value.withCustomAttributes)),
    paginationHeaders(pagination, url, publicUrl),
  )
}
