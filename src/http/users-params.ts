import { err, ok, type Result } from 'neverthrow'
import { USERS_FILTER_FLAGS, type UsersFilterFlag, type UsersQuery } from '../authority/find-users.js'
import type { ErrorOf } from '../domain/errors.js'
import type { PageRequest } from '../query/filter.js'
import { GRAPE_FALSE_VALUES, GRAPE_TRUE_VALUES } from '../query/grape-coercions.js'
import { parseIsoDateTime } from '../query/iso-datetime.js'
import type { ListParamsParser } from './list-params.js'

type InvalidParameter = ErrorOf<'invalid_parameter'>

/**
 * A `GET /users` request's parameters, parsed: the query for the authority, the page, and whether
 * `with_custom_attributes` was asked for.
 *
 * @example
 * ```ts
 * import type { UsersParams } from './users-params.js'
 * const p: UsersParams = { query: { username: 'alice' }, page: { page: 1, perPage: 20 }, withCustomAttributes: false }
 * ```
 */
export interface UsersParams {
  readonly query: UsersQuery
  readonly page: PageRequest
  readonly withCustomAttributes: boolean
}

/**
 * The last value of a parameter, or undefined when absent or blank: Grape turns a blank value of a
 * typed (non-String) parameter into nil, so `active=` filters nothing and is no error.
 */
function typed(params: URLSearchParams, name: string): string | undefined {
  const value = params.getAll(name).at(-1)
  return value === undefined || value.trim() === '' ? undefined : value
}

/**
 * Grape's Boolean coercion of one query parameter: its true and false words in any case, undefined
 * when absent or blank, else `<name> is invalid`.
 *
 * @example
 * ```ts
 * import { grapeBoolean } from './users-params.js'
 *
 * grapeBoolean(new URLSearchParams('active=Yes'), 'active') // ok(true)
 * grapeBoolean(new URLSearchParams('active=maybe'), 'active') // err: active is invalid
 * ```
 */
export function grapeBoolean(
  params: URLSearchParams,
  name: string,
): Result<boolean | undefined, InvalidParameter> {
  const value = typed(params, name)?.toLowerCase()
  if (value === undefined) return ok(undefined)
  if ((GRAPE_TRUE_VALUES as readonly string[]).includes(value)) return ok(true)
  if ((GRAPE_FALSE_VALUES as readonly string[]).includes(value)) return ok(false)
  return err({ type: 'invalid_parameter', parameter: name, reason: 'invalid' })
}

function oneOf(
  params: URLSearchParams,
  name: string,
  values: readonly string[],
): Result<void, InvalidParameter> {
  const value = typed(params, name)
  return value === undefined || values.includes(value)
    ? ok(undefined)
    : err({ type: 'invalid_parameter', parameter: name, reason: 'not_allowed_value' })
}

/**
 * Parses `GET /users` as lib/api/users.rb declares it, reporting the first bad parameter in that
 * order: the Boolean filters (Grape's true and false words), `created_after`/`created_before`
 * (ISO 8601), `extern_uid` with `provider` (all or none), `order_by` (`id`, `name`, `username`,
 * `created_at`, `updated_at`), `sort` (`asc`, `desc`), then `page`/`per_page` as on the token list,
 * and `with_custom_attributes`. Unknown names are ignored. `search`, the `created_*` filters, the
 * order and `custom_attributes[...]` are validated where GitLab validates them but filter nothing:
 * patkit finds at most one user, by username.
 *
 * @example
 * ```ts
 * import { listParamsParser } from './list-params.js'
 * import { parseUsersParams } from './users-params.js'
 *
 * const parseList = await listParamsParser()
 * parseUsersParams(new URLSearchParams('username=alice&active=true'), parseList)
 * // ok({ query: { username: 'alice', flags: ['active'] }, page: { page: 1, perPage: 20 }, withCustomAttributes: false })
 * parseUsersParams(new URLSearchParams('active=maybe'), parseList) // err: active is invalid
 * ```
 */
export function parseUsersParams(
  params: URLSearchParams,
  parseListParams: ListParamsParser,
): Result<UsersParams, InvalidParameter> {
  const flags: UsersFilterFlag[] = []
  // Flags keep the request's names (GitLab's finder renames exclude_external and exclude_internal).
  for (const flag of USERS_FILTER_FLAGS) {
    const value = grapeBoolean(params, flag)
    if (value.isErr()) return err(value.error)
    if (value.value === true) flags.push(flag)
  }
  for (const name of ['created_after', 'created_before']) {
    const value = typed(params, name)
    if (value !== undefined && parseIsoDateTime(value).isErr()) {
      return err({ type: 'invalid_parameter', parameter: name, reason: 'invalid' })
    }
  }
  const externUid = params.getAll('extern_uid').at(-1)
  const provider = params.getAll('provider').at(-1)
  if ((externUid === undefined) !== (provider === undefined)) {
    return err({ type: 'invalid_parameter', parameter: 'extern_uid, provider', reason: 'all_or_none' })
  }
  const order = oneOf(params, 'order_by', ['id', 'name', 'username', 'created_at', 'updated_at']).andThen(
    () => oneOf(params, 'sort', ['asc', 'desc']),
  )
  if (order.isErr()) return err(order.error)
  // The token list's rules for page and per_page are GitLab's shared pagination parameters.
  const paging = new URLSearchParams()
  for (const name of ['page', 'per_page']) {
    const value = params.getAll(name).at(-1)
    if (value !== undefined) paging.set(name, value)
  }
  const page = parseListParams(paging)
  if (page.isErr()) return err(page.error)
  const custom = grapeBoolean(params, 'with_custom_attributes')
  if (custom.isErr()) return err(custom.error)

  const username = params.getAll('username').at(-1)
  const twoFactor = params.getAll('two_factor').at(-1)
  const query: UsersQuery = {
    ...(username === undefined ? {} : { username }),
    ...(externUid === undefined || provider === undefined ? {} : { externUid, provider }),
    ...(flags.length === 0 ? {} : { flags }),
    ...(twoFactor === undefined ? {} : { twoFactor }),
  }
  return ok({ query, page: page.value.page, withCustomAttributes: custom.value === true })
}
