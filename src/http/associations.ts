import { err, ok, type Result } from 'neverthrow'
import { hasFeature, type Release } from '../authority/core/release.js'
import { invalidParameter } from '../domain/error-constructors.js'
import type { PageRequest } from '../query/filter.js'
import { parseGrapeInteger } from '../query/grape-coercions.js'
import { type ListParamsParser, parsePage } from './list-params.js'
import { grapeFailures, type InvalidParameter, lastValue } from './request-params.js'

/** The parameters of `GET /personal_access_tokens/self/associations`, parsed. */
export interface AssociationsParams {
  readonly minAccessLevel?: number
  readonly page: PageRequest
}

/**
 * GitLab's access levels a `min_access_level` may name (`Gitlab::Access.all_values`): guest,
 * reporter, developer, maintainer, owner, and planner (15) from 17.7, when GitLab added the role.
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
 */
export function parseAssociationsParams(
  params: URLSearchParams,
  release: Release,
  // Passed in rather than imported: the list parser (zod) loads on the first request that needs it.
  parseList: ListParamsParser,
): Result<AssociationsParams, InvalidParameter> {
  const failures: InvalidParameter[] = []
  let minAccessLevel: number | undefined
  const level = lastValue(params, 'min_access_level')
  if (level !== undefined && level !== '') {
    const parsed = parseGrapeInteger(level)
    if (parsed.isErr()) failures.push(invalidParameter('min_access_level', 'invalid'))
    else if (!accessLevels(release).includes(parsed.value)) {
      failures.push(invalidParameter('min_access_level', 'not_allowed_value'))
    } else minAccessLevel = parsed.value
  }
  const page = parsePage(params, parseList)
  if (page.isErr()) failures.push(page.error)
  const checked = grapeFailures(failures)
  if (checked.isErr()) return err(checked.error)
  return ok({
    ...(minAccessLevel === undefined ? {} : { minAccessLevel }),
    page: page.isOk() ? page.value : { page: 1, perPage: 20 },
  })
}
