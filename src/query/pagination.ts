import type { PageRequest } from './filter.js'

/** `per_page` when none is given (Kaminari's default in GitLab). */
export const DEFAULT_PER_PAGE = 20

/** The largest `per_page`; larger requests are silently capped to it (Kaminari's `max_per_page`). */
export const MAX_PER_PAGE = 100

/**
 * Where a page sits in a list: what GitLab's `X-Total`, `X-Total-Pages`, `X-Page`, `X-Per-Page`,
 * `X-Next-Page`, `X-Prev-Page` and `Link` headers report.
 *
 * @example
 * ```ts
 * import type { Pagination } from 'patkit/store'
 * const last: Pagination = { total: 45, totalPages: 3, page: 3, perPage: 20, offset: 40, nextPage: null, prevPage: 2 }
 * ```
 */
export interface Pagination {
  readonly total: number
  /** At least 1, even for an empty list (GitLab's header builder). */
  readonly totalPages: number
  readonly page: number
  readonly perPage: number
  /** How many matching tokens precede the page. */
  readonly offset: number
  /** `null` on the last page and past it. */
  readonly nextPage: number | null
  /** `null` on the first page and past the last one. */
  readonly prevPage: number | null
}

/** How many items precede a page: `(page - 1) * perPage`. */
export function pageOffset(page: PageRequest): number {
  return (page.page - 1) * page.perPage
}

/**
 * Kaminari's arithmetic for one page of `total` items. A page past the last one is out of range: it is
 * empty, and has neither a next nor a previous page. Expects a valid {@link PageRequest} (`page >= 1`,
 * `perPage >= 1`), as `parseListParams` produces.
 *
 * @example
 * ```ts
 * import { paginate } from 'patkit/store'
 * paginate(45, { page: 2, perPage: 20 })
 * // { total: 45, totalPages: 3, page: 2, perPage: 20, offset: 20, nextPage: 3, prevPage: 1 }
 * paginate(0, { page: 1, perPage: 20 }).totalPages // 1
 * ```
 */
export function paginate(total: number, page: PageRequest): Pagination {
  const totalPages = Math.max(1, Math.ceil(total / page.perPage))
  const inRange = page.page <= totalPages
  return {
    total,
    totalPages,
    page: page.page,
    perPage: page.perPage,
    offset: pageOffset(page),
    nextPage: page.page < totalPages ? page.page + 1 : null,
    prevPage: page.page > 1 && inRange ? page.page - 1 : null,
  }
}
