/**
 * The list query engine: parameters, filter, search, order and pages of `GET /personal_access_tokens`.
 * An internal barrel (for patkit's own tests): what store authors use is exported by `patkit/store`,
 * the rest is internal.
 *
 * @example
 * ```ts
 * import { applyListQuery } from 'patkit/store'
 * import { parseListParams } from './params.js'
 * const query = parseListParams(new URLSearchParams('state=active'))
 * ```
 * @packageDocumentation
 */
export { applyListQuery, listOver } from './apply.js'
export { compareCodePoints } from './code-point-order.js'
export { type ListQuery, type PageRequest, SORT_KEYS, type SortKey, type TokenFilter } from './filter.js'
export { GRAPE_FALSE_VALUES, GRAPE_TRUE_VALUES, parseGrapeInteger } from './grape-coercions.js'
export { type InstantReader, TOKEN_INSTANTS } from './instants.js'
export { type IsoDateTime, parseIsoDateTime } from './iso-datetime.js'
export { DEFAULT_PER_PAGE, MAX_PER_PAGE, type Pagination, pageOffset, paginate } from './pagination.js'
export { LIST_PARAMETERS, type ListParameter, type ListParams, parseListParams } from './params.js'
export { type Filterable, filterPredicate, matchesFilter, predicateOver } from './predicate.js'
export {
  foldCase,
  MIN_SEARCH_TERM_LENGTH,
  matchesSearch,
  parseSearch,
  type SearchPlan,
  searchMatcher,
} from './search.js'
export {
  type Comparators,
  comparatorsOver,
  compareTokens,
  DEFAULT_SORT,
  isSortKey,
  type Sortable,
} from './sort.js'
