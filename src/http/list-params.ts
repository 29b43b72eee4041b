import type { Result } from 'neverthrow'
import type { ErrorOf } from '../domain/errors.js'
import type { PageRequest } from '../query/filter.js'
import type { parseListParams } from '../query/params.js'
import { lastValue } from './request-params.js'

/** GitLab's list query parser (`parseListParams`). */
export type ListParamsParser = typeof parseListParams

let loading: Promise<ListParamsParser> | undefined

/**
 * The list query parser, loaded on the first request that lists (tokens, or users' pages): its zod
 * schema is most of a server's start-up otherwise (`patkit serve`'s cold start, docs/benchmarks.md,
 * target 9b), and requests that never list (authentication, `self`) never need it.
 */
export function listParamsParser(): Promise<ListParamsParser> {
  loading ??= import('../query/params.js').then((module) => module.parseListParams)
  return loading
}

const PAGE_PARAMETERS = ['page', 'per_page'] as const

/**
 * GitLab's shared pagination parameters (`use :pagination`: `page`, `per_page`) of a query, by the
 * token list's rules; every other parameter is left to the route.
 */
export function parsePage(
  params: URLSearchParams,
  parseList: ListParamsParser,
): Result<PageRequest, ErrorOf<'invalid_parameter'>> {
  const paging = new URLSearchParams()
  for (const name of PAGE_PARAMETERS) {
    const value = lastValue(params, name)
    if (value !== undefined) paging.set(name, value)
  }
  return parseList(paging).map((parsed) => parsed.page)
}
