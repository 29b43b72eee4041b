import type { Authority } from '../authority/create-authority.js'
import type { Principal } from '../authority/principal.js'
import { paginate } from '../query/pagination.js'
import type { User } from '../store/user.js'
import { errorReply } from './error-response.js'
import { listParamsParser } from './list-params.js'
import { paginationHeaders } from './pagination-headers.js'
import { json, type Reply } from './responses.js'
import { type UserEntity, userJson, userWebBase } from './user-json.js'
import { grapeBoolean, parseUsersParams } from './users-params.js'

/**
 * The users API routes patkit serves: `GET /user` (the caller), `GET /users/:id` and
 * `GET /users?username=`.
 *
 * @example
 * ```ts
 * import type { UserRouteName } from './user-routes.js'
 * const name: UserRouteName = 'current_user'
 * ```
 */
export type UserRouteName = 'current_user' | 'user' | 'users'

const USER_ROUTES: readonly string[] = ['current_user', 'user', 'users'] satisfies UserRouteName[]

/**
 * Whether a route is one of the users API's.
 *
 * @example
 * ```ts
 * import { isUserRoute } from './user-routes.js'
 *
 * isUserRoute('users') // true
 * isUserRoute('list') // false
 * ```
 */
export function isUserRoute(name: string): name is UserRouteName {
  return USER_ROUTES.includes(name)
}

/**
 * Serves one users API route for the request's principal. Unlike the token routes, `GET /users` and
 * `GET /users/:id` also answer a request without a token (`principal` is `null`, as GitLab's
 * `current_user` is nil, and each route decides); `GET /user` requires one. Administrators get
 * GitLab's admin entities (`is_admin` and the other admin-only fields), others the public ones.
 *
 * @example
 * ```ts
 * import { serveUserRoute } from './user-routes.js'
 * declare const url: URL
 *
 * const reply = await serveUserRoute(authority, 'current_user', undefined, principal, url, undefined)
 * ```
 */
export async function serveUserRoute(
  authority: Authority,
  name: UserRouteName,
  segment: string | undefined,
  principal: Principal | null,
  url: URL,
  publicUrl: URL | undefined,
): Promise<Reply> {
  const viewer = principal?.user ?? null
  const admin = viewer?.admin === true
  const render = (user: User, entity: UserEntity, withCustomAttributes = false) =>
    userJson(user, { entity, viewer, webBase: userWebBase(url, publicUrl), withCustomAttributes })

  switch (name) {
    case 'current_user': {
      if (principal === null) return errorReply({ type: 'unauthenticated' })
      const me = await authority.currentUser(principal)
      if (me.isErr()) return errorReply(me.error)
      // GitLab picks the entity by `admin?` here, not by the admin-mode-aware check of the other routes.
      return json(200, render(me.value, me.value.admin ? 'with_admin' : 'public'))
    }
    case 'user': {
      const custom = grapeBoolean(url.searchParams, 'with_custom_attributes')
      if (custom.isErr()) return errorReply(custom.error)
      // The route matches digits only (GitLab's `requirements: { id: /[0-9]*/ }`); ids too large to
      // be exact become a number no user has.
      const found = await authority.findUser(principal, Number(segment))
      if (found.isErr()) return errorReply(found.error, 'users')
      return json(200, render(found.value, admin ? 'details_with_admin' : 'user', custom.value === true))
    }
    case 'users': {
      const params = parseUsersParams(url.searchParams, await listParamsParser())
      if (params.isErr()) return errorReply(params.error)
      const found = await authority.findUsers(principal, params.value.query)
      if (found.isErr()) return errorReply(found.error, 'users')
      const pagination = paginate(found.value.length, params.value.page)
      const page = found.value.slice(pagination.offset, pagination.offset + pagination.perPage)
      return json(
        200,
        page.map((user) => render(user, admin ? 'with_admin' : 'basic', params.value.withCustomAttributes)),
        paginationHeaders(pagination, url, publicUrl),
      )
    }
  }
}
