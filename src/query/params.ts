import { err, ok, type Result } from 'neverthrow'
import { z } from 'zod'
import type { ErrorOf } from '../domain/errors.js'
import type { PageRequest, SortKey, TokenFilter } from './filter.js'
import { GRAPE_FALSE_VALUES, GRAPE_TRUE_VALUES, parseGrapeInteger } from './grape-coercions.js'
import { parseIsoDateTime } from './iso-datetime.js'
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from './pagination.js'
import { DEFAULT_SORT, isSortKey } from './sort.js'

/**
 * Every query parameter of `GET /personal_access_tokens`, in the order errors are reported: when several
 * are bad, the first one in this list is named. Any other parameter is ignored, as GitLab does.
 */
export const LIST_PARAMETERS = [
  'created_after',
  'created_before',
  'last_used_after',
  'last_used_before',
  'expires_after',
  'expires_before',
  'revoked',
  'state',
  'search',
  'user_id',
  'sort',
  'page',
  'per_page',
] as const

/** One of {@link LIST_PARAMETERS}. */
export type ListParameter = (typeof LIST_PARAMETERS)[number]

/**
 * The list parameters, parsed. `userRef` is `user_id` as given (trimmed; `''` when the key is present
 * but blank): resolving it to a user, and deciding who may name whom, is the authority's job.
 */
export interface ListParams {
  readonly filter: Omit<TokenFilter, 'userId' | 'excludeImpersonation'>
  readonly userRef?: string
  readonly sort: SortKey
  readonly page: PageRequest
}

type Reason = ErrorOf<'invalid_parameter'>['reason']
const REASONS = [
  'missing',
  'invalid',
  'not_allowed_value',
  'excluded_value',
] as const satisfies readonly Reason[]

// Beyond this page, (page - 1) * perPage is no longer an exact JavaScript integer; such a page is
// refused rather than answered with a wrong offset.
const MAX_PAGE = Math.floor(Number.MAX_SAFE_INTEGER / MAX_PER_PAGE)

// Every issue a parameter raises carries its failure reason as the message; parseListParams reads it back.
const instant = (bound: 'lower' | 'upper') =>
  z.string().transform((text, ctx) => {
    const parsed = parseIsoDateTime(text)
    if (parsed.isErr()) {
      ctx.addIssue('invalid' satisfies Reason)
      return z.NEVER
    }
    const { instant, truncated } = parsed.value
    // Tokens keep milliseconds. Rounding a finer lower bound up (an upper bound is already rounded down)
    // keeps `createdAt >= bound` and `createdAt <= bound` exactly as GitLab's microsecond comparison.
    return bound === 'lower' && truncated ? new Date(instant.getTime() + 1) : instant
  })

// GitLab's Date coercion keeps the date as written and drops any time and zone.
const day = z.string().transform((text, ctx) => {
  const parsed = parseIsoDateTime(text)
  if (parsed.isErr()) {
    ctx.addIssue('invalid' satisfies Reason)
    return z.NEVER
  }
  return parsed.value.day
})

// An empty page or per_page reaches Kaminari as '', which it reads as the default.
const page = z
  .string()
  .transform((text, ctx) => {
    if (text.trim() === '') return 1
    const parsed = parseGrapeInteger(text)
    if (parsed.isErr() || parsed.value > MAX_PAGE) {
      ctx.addIssue('invalid' satisfies Reason)
      return z.NEVER
    }
    // Kaminari serves the first page for any page <= 0.
    return Math.max(1, parsed.value)
  })
  .default(1)

const perPage = z
  .string()
  .transform((text, ctx) => {
    if (text.trim() === '') return DEFAULT_PER_PAGE
    const parsed = parseGrapeInteger(text)
    if (parsed.isErr()) {
      ctx.addIssue('invalid' satisfies Reason)
      return z.NEVER
    }
    // Grape refuses 0 outright (`except_values: [0]`); Kaminari then ignores a negative value and
    // caps a large one.
    if (parsed.value === 0) {
      ctx.addIssue('excluded_value' satisfies Reason)
      return z.NEVER
    }
    return parsed.value < 0 ? DEFAULT_PER_PAGE : Math.min(parsed.value, MAX_PER_PAGE)
  })
  .default(DEFAULT_PER_PAGE)

const listParamsSchema = z.object({
  created_after: instant('lower').optional(),
  created_before: instant('upper').optional(),
  last_used_after: instant('lower').optional(),
  last_used_before: instant('upper').optional(),
  expires_after: day.optional(),
  expires_before: day.optional(),
  revoked: z
    .stringbool({
      truthy: [...GRAPE_TRUE_VALUES],
      falsy: [...GRAPE_FALSE_VALUES],
      case: 'insensitive',
      error: 'invalid' satisfies Reason,
    })
    .optional(),
  state: z.enum(['active', 'inactive'], { error: 'not_allowed_value' satisfies Reason }).optional(),
  search: z.string().optional(),
  user_id: z
    .string()
    .transform((text) => text.trim())
    .optional(),
  // GitLab ignores a sort it does not know.
  sort: z
    .string()
    .transform((text) => (isSortKey(text) ? text : DEFAULT_SORT))
    .default(DEFAULT_SORT),
  page,
  per_page: perPage,
} satisfies Record<ListParameter, z.ZodType>)

// The parameters GitLab declares with a type other than String (DateTime, Date, Boolean, Integer).
const TYPED: ReadonlySet<ListParameter> = new Set([
  'created_after',
  'created_before',
  'last_used_after',
  'last_used_before',
  'expires_after',
  'expires_before',
  'revoked',
  'page',
  'per_page',
])

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

/**
 * Parses the query string of `GET /personal_access_tokens` as GitLab (Grape and Kaminari) does: the last
 * of repeated keys wins, unknown keys are ignored, defaults are `sort=id_asc`, `page=1`, `per_page=20`.
 * `created_*`/`last_used_*` take an ISO 8601 date or date-time (UTC without a zone); `expires_*` a date
 * (a date-time's time is dropped); `revoked` Grape's booleans (`true/t/yes/y/on/1`, `false/f/no/n/off/0`,
 * any case); `state` `active` or `inactive`; a blank `search` is no filter; an unknown `sort` is the
 * default; `page <= 0` is 1; `per_page` is capped at 100, a negative one is 20, and 0 is an error.
 * On failure, names the first bad parameter in {@link LIST_PARAMETERS} order with the reason: `invalid`,
 * `not_allowed_value` (state) or `excluded_value` (`per_page=0`).
 */
export function parseListParams(params: URLSearchParams): Result<ListParams, ErrorOf<'invalid_parameter'>> {
  const given: Partial<Record<ListParameter, string>> = {}
  for (const name of LIST_PARAMETERS) {
    const last = params.getAll(name).at(-1)
    // Grape reads an empty value (`?created_after` or `created_after=`) of a typed parameter as nil:
    // the parameter is ignored, not invalid.
    if (last !== undefined && !(last === '' && TYPED.has(name))) given[name] = last
  }
  const parsed = listParamsSchema.safeParse(given)
  if (!parsed.success) return err(firstError(parsed.error.issues))
  const data = parsed.data
  const filter: Mutable<ListParams['filter']> = {}
  if (data.created_after !== undefined) filter.createdAfter = data.created_after
  if (data.created_before !== undefined) filter.createdBefore = data.created_before
  if (data.last_used_after !== undefined) filter.lastUsedAfter = data.last_used_after
  if (data.last_used_before !== undefined) filter.lastUsedBefore = data.last_used_before
  if (data.expires_after !== undefined) filter.expiresAfter = data.expires_after
  if (data.expires_before !== undefined) filter.expiresBefore = data.expires_before
  if (data.revoked !== undefined) filter.revoked = data.revoked
  if (data.state !== undefined) filter.state = data.state
  if (data.search !== undefined && data.search.trim() !== '') filter.search = data.search
  const result: Mutable<ListParams> = {
    filter,
    sort: data.sort,
    page: { page: data.page, perPage: data.per_page },
  }
  if (data.user_id !== undefined) result.userRef = data.user_id
  return ok(result)
}

function firstError(issues: readonly z.core.$ZodIssue[]): ErrorOf<'invalid_parameter'> {
  // zod reports every bad parameter; the error names the first in declaration order.
  const issue = LIST_PARAMETERS.flatMap((name) => issues.filter((i) => i.path[0] === name))[0] ?? issues[0]
  return {
    type: 'invalid_parameter',
    parameter: String(issue?.path[0]),
    reason: issue !== undefined && isReason(issue.message) ? issue.message : 'invalid',
  }
}

function isReason(message: string): message is Reason {
  return (REASONS as readonly string[]).includes(message)
}
