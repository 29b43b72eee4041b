import { err, ok, type Result } from 'neverthrow'
import { hasFeature, type Release } from '../authority/release.js'
import type { ErrorOf } from '../domain/errors.js'
import type { PageRequest } from '../query/filter.js'
import { parseGrapeInteger } from '../query/grape-coercions.js'
import type { ListParamsParser } from './list-params.js'

type InvalidParameter = ErrorOf<'invalid_parameter'>

/**
 * The parameters of `GET /personal_access_tokens/self/associations`, parsed.
 *
 * @example
 * ```ts
 * import type { AssociationsParams } from './associations.js'
 * const params: AssociationsParams = { minAccessLevel: 30, page: { page: 1, perPage: 20 } }
 * ```
 */
export interface AssociationsParams {
  readonly minAccessLevel?: number
  readonly page: PageRequest
}

/**
 * GitLab's access levels a `min_access_level` may name (`Gitlab::Access.all_values`): guest,
 * reporter, developer, maintainer, owner, and planner (15) from 17.7, when GitLab added the role.
 *
 * @example
 * ```ts
 * import { accessLevels } from './associations.js'
 *
 * accessLevels('17.4') // [10, 20, 30, 40, 50]
 * ```
 */
export function accessLevels(release: Release): readonly number[] {
  return hasFeature('planner_role', release) ? [10, 15, 20, 30, 40, 50] : [10, 20, 30, 40, 50]
}

/**
 * Parses the query as GitLab declares it (lib/api/personal_access_tokens/self_information.rb):
 * `min_access_level`, an Integer among {@link accessLevels}, then `use :pagination` (`page`,
 * `per_page` as on the token list). Grape reads an empty value as nil (ignored) and reports every
 * failure together: `min_access_level is invalid` for a non-integer, `does not have a valid value`
 * for another level.
 *
 * @example
 * ```ts
 * import { parseAssociationsParams } from './associations.js'
 * import { listParamsParser } from './list-params.js'
 *
 * parseAssociationsParams(new URLSearchParams('min_access_level=30'), '18.6', await listParamsParser())
 * // ok({ minAccessLevel: 30, page: { page: 1, perPage: 20 } })
 * ```
 */
export function parseAssociationsParams(
  params: URLSearchParams,
  release: Release,
  // Passed in rather than imported: the list parser (zod) loads on the first request that needs it.
  parseListParams: ListParamsParser,
): Result<AssociationsParams, InvalidParameter> {
  const failures: InvalidParameter[] = []
  let minAccessLevel: number | undefined
  const level = params.getAll('min_access_level').at(-1)
  if (level !== undefined && level !== '') {
    const parsed = parseGrapeInteger(level)
    if (parsed.isErr())
      failures.push({ type: 'invalid_parameter', parameter: 'min_access_level', reason: 'invalid' })
    else if (!accessLevels(release).includes(parsed.value)) {
      failures.push({ type: 'invalid_parameter', parameter: 'min_access_level', reason: 'not_allowed_value' })
    } else minAccessLevel = parsed.value
  }
  // The token list's rules for page and per_page are GitLab's shared pagination parameters.
  const paging = new URLSearchParams()
  for (const name of ['page', 'per_page']) {
    const last = params.getAll(name).at(-1)
    if (last !== undefined) paging.set(name, last)
  }
  const page = parseListParams(paging)
  if (page.isErr()) failures.push(page.error)
  const [first, ...further] = failures
  if (first !== undefined) {
    return err(
      further.length === 0
        ? first
        : { ...first, further: further.map(({ parameter, reason }) => ({ parameter, reason })) },
    )
  }
  return ok({
    ...(minAccessLevel === undefined ? {} : { minAccessLevel }),
    page: page.isOk() ? page.value.page : { page: 1, perPage: 20 },
  })
}
