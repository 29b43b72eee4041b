import type { parseListParams } from '../query/params.js'

/** GitLab's list query parser (`parseListParams`). */
export type ListParamsParser = typeof parseListParams

let loading: Promise<ListParamsParser> | undefined

/**
 * The list query parser, loaded on the first request that lists (tokens, or users' pages): its zod
 * schema is most of a server's start-up otherwise (`patkit serve`'s cold start, docs/benchmarks.md,
 * target 9b), and requests that never list (authentication, `self`) never need it.
 *
 * @example
 * ```ts
 * import { listParamsParser } from './list-params.js'
 *
 * const parse = await listParamsParser()
 * parse(new URLSearchParams('per_page=5')) // ok({ filter: {}, sort: 'id_asc', page: { page: 1, perPage: 5 } })
 * ```
 */
export function listParamsParser(): Promise<ListParamsParser> {
  loading ??= import('../query/params.js').then((module) => module.parseListParams)
  return loading
}
