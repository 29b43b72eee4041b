import { err, ok, type Result } from 'neverthrow'
import { USERS_FILTER_FLAGS, type UsersFilterFlag, type UsersQuery } from '../authority/users/find-users.js'
import { invalidParameter } from '../domain/error-constructors.js'
import type { PageRequest } from '../query/filter.js'
import { GRAPE_FALSE_VALUES, GRAPE_TRUE_VALUES } from '../query/grape-coercions.js'
import { parseIsoDateTime } from '../query/iso-datetime.js'
import { type ListParamsParser, parsePage } from './list-params.js'
import { type InvalidParameter, lastValue } from './request-params.js'

/**
 * A `GET /users` request's parameters, parsed: the query for the authority, the page, and whether
 * `with_custom_attributes` was asked for.
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
  const value = lastValue(params, name)
  return value === undefined || value.trim() === '' ? undefined : value
}

/**
 * Grape's Boolean coercion of one query parameter: its true and false words in any case, undefined
 * when absent or blank, else `<name> is invalid`.
 */
export function grapeBoolean(
  params: URLSearchParams,
  name: string,
): Result<boolean | undefined, InvalidParameter> {
  const value = typed(params, name)?.toLowerCase()
  if (value === undefined) return ok(undefined)
  if ((GRAPE_TRUE_VALUES as readonly string[]).includes(value)) return ok(true)
  if ((GRAPE_FALSE_VALUES as readonly string[]).includes(value)) return ok(false)
  return err(invalidParameter(name, 'invalid'))
}

function oneOf(
  params: URLSearchParams,
  name: string,
  values: readonly string[],
): Result<void, InvalidParameter> {
  const value = typed(params, name)
  return value === undefined || values.includes(value)
    ? ok(undefined)
    : err(invalidParameter(name, 'not_allowed_value'))
}

/**
 * Parses `GET /users` as lib/api/users.rb declares it, reporting the first bad parameter in that
 * order: the Boolean filters (Grape's true and false words), `created_after`/`created_before`
 * (ISO 8601), `extern_uid` with `provider` (all or none), `order_by` (`id`, `name`, `username`,
 * `created_at`, `updated_at`), `sort` (`asc`, `desc`), then `page`/`per_page` as on the token list,
 * and `with_custom_attributes`. Unknown names are ignored. `search`, the `created_*` filters, the
 * order and `custom_attributes[...]` are validated where GitLab validates them but filter nothing:
 * patkit finds at most one user, by username.
 */
export function parseUsersParams(
  params: URLSearchParams,
  parseList: ListParamsParser,
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
      return err(invalidParameter(name, 'invalid'))
    }
  }
  const externUid = lastValue(params, 'extern_uid')
  const provider = lastValue(params, 'provider')
  if ((externUid === undefined) !== (provider === undefined)) {
    return err(invalidParameter('extern_uid, provider', 'all_or_none'))
  }
  const order = oneOf(params, 'order_by', ['id', 'name', 'username', 'created_at', 'updated_at']).andThen(
    () => oneOf(params, 'sort', ['asc', 'desc']),
  )
  if (order.isErr()) return err(order.error)
  const page = parsePage(params, parseList)
  if (page.isErr()) return err(page.error)
  const custom = grapeBoolean(params, 'with_custom_attributes')
  if (custom.isErr()) return err(custom.error)

  const username = lastValue(params, 'username')
  const twoFactor = lastValue(params, 'two_factor')
  const query: UsersQuery = {
    ...(username === undefined ? {} : { username }),
    ...(externUid === undefined || provider === undefined ? {} : { externUid, provider }),
    ...(flags.length === 0 ? {} : { flags }),
    ...(twoFactor === undefined ? {} : { twoFactor }),
  }
  return ok({ query, page: page.value, withCustomAttributes: custom.value === true })
}
