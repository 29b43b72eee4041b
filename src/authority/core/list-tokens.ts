import { err, ok, type Result, ResultAsync } from 'neverthrow'
import { notFound, unauthorized } from '../../domain/error-constructors.js'
import type { ErrorOf, StoreFailure } from '../../domain/errors.js'
import type { Token } from '../../domain/token.js'
import type { PageRequest, SortKey, TokenFilter } from '../../query/filter.js'
import { type Pagination, paginate } from '../../query/pagination.js'
import type { User } from '../../store/user.js'
import type { AuthorityDeps } from './deps.js'
import { type Actor, actsAsAdmin } from './principal.js'
import { hasFeature } from './release.js'
import { READ_SCOPES, requireScope } from './scope-policy.js'

/**
 * A list request, as `parseListParams` produces it from a query string, or written by hand: every
 * part optional. `userRef` is the raw `user_id` (an id or a username; `''` when given blank).
 *
 * @example
 * ```ts
 * import type { ListRequest } from 'patkit/authority'
 * const request: ListRequest = { filter: { state: 'active' }, sort: 'created_desc', page: { page: 2 } }
 * ```
 */
export interface ListRequest {
  readonly filter?: Omit<TokenFilter, 'userId' | 'excludeImpersonation'>
  readonly userRef?: string
  readonly sort?: SortKey
  readonly page?: Partial<PageRequest>
}

/**
 * One page of tokens with GitLab's pagination numbers.
 *
 * @example
 * ```ts
 * import type { TokenPage } from 'patkit'
 * declare const page: TokenPage
 * page.pagination.nextPage // null on the last page
 * ```
 */
export interface TokenPage {
  readonly items: readonly Token[]
  readonly pagination: Pagination
}

/** The filters that only exist from release 15.5; older releases ignore them. */
const DATED_FILTERS = [
  'createdAfter',
  'createdBefore',
  'lastUsedAfter',
  'lastUsedBefore',
  'revoked',
  'state',
  'search',
] as const

/** Every way `list` can fail. */
export type ListError = ErrorOf<'insufficient_scope' | 'unauthorized' | 'not_found' | 'store_failure'>

/**
 * GitLab's list: administrators see every token, or one user's with `user_id` (404 for an unknown or
 * blank one); everyone else sees only their own tokens, without impersonation tokens, and naming any
 * other user, or an unknown one, is 401.
 */
export function listTokens(
  deps: AuthorityDeps,
  principal: Actor,
  request: ListRequest,
): ResultAsync<TokenPage, ListError> {
  return new ResultAsync(listFor(deps, principal, request))
}

async function listFor(
  deps: AuthorityDeps,
  principal: Actor,
  request: ListRequest,
): Promise<Result<TokenPage, ListError>> {
  const scoped = requireScope(principal, READ_SCOPES)
  if (scoped.isErr()) return err(scoped.error)
  const scope = await resolveOwnerScope(deps, principal, request.userRef)
  if (scope.isErr()) return err(scope.error)
  return listPage(deps, { ...datedFilters(deps, request.filter ?? {}), ...scope.value }, request)
}

/**
 * One page of the store's tokens under `filter`, the personal and the resource lists alike: GitLab's
 * page bounds (from 1, 1 to 100 a page, 20 by default) and default sort (`id_asc`).
 */
export async function listPage(
  deps: AuthorityDeps,
  filter: TokenFilter,
  request: Pick<ListRequest, 'sort' | 'page'>,
): Promise<Result<TokenPage, StoreFailure>> {
  const page = {
    page: Math.max(1, request.page?.page ?? 1),
    perPage: Math.min(100, Math.max(1, request.page?.perPage ?? 20)),
  }
  const listed = await deps.store.list({
    filter,
    sort: request.sort ?? 'id_asc',
    page,
    now: deps.clock.now(),
  })
  if (listed.isErr()) return err(listed.error)
  return ok({ items: listed.value.items, pagination: paginate(listed.value.total, page) })
}

/** The list filters the emulated release has (before 15.5 the dated ones are ignored). */
export function datedFilters(
  deps: AuthorityDeps,
  filter: Omit<TokenFilter, 'userId' | 'excludeImpersonation'>,
): Omit<TokenFilter, 'userId' | 'excludeImpersonation'> {
  if (hasFeature('list_filters', deps.release)) return filter
  const kept: Record<string, unknown> = { ...filter }
  for (const key of DATED_FILTERS) delete kept[key]
  return kept as Omit<TokenFilter, 'userId' | 'excludeImpersonation'>
}

async function resolveOwnerScope(
  deps: AuthorityDeps,
  principal: Actor,
  userRef: string | undefined,
): Promise<Result<Pick<TokenFilter, 'userId' | 'excludeImpersonation'>, ListError>> {
  const ref = userRef?.trim()
  if (!actsAsAdmin(principal)) {
    const own = { userId: principal.user.id, excludeImpersonation: true }
    if (ref === undefined || ref === '') return ok(own)
    const named = await findUserByRef(deps, ref)
    if (named.isErr()) return err(named.error)
    return named.value !== null && named.value.id === principal.user.id ? ok(own) : err(unauthorized())
  }
  if (ref === undefined) return ok({})
  if (ref === '') return err(notFound('user'))
  const named = await findUserByRef(deps, ref)
  if (named.isErr()) return err(named.error)
  return named.value === null ? err(notFound('user')) : ok({ userId: named.value.id })
}

/**
 * `user_id` is an integer id or, as the spec allows, a username. With `userIdType: 'string'` it is a
 * string id or, when no user has that id, a username: the id wins.
 */
export function findUserByRef(
  deps: AuthorityDeps,
  ref: string,
): ResultAsync<User | null, ErrorOf<'store_failure'>> {
  if (deps.userIdType === 'string') return new ResultAsync(idThenUsername(deps, ref))
  return deps.users.findUser(/^\d+$/.test(ref) ? Number(ref) : ref)
}

async function idThenUsername(
  deps: AuthorityDeps,
  ref: string,
): Promise<Result<User | null, ErrorOf<'store_failure'>>> {
  const byId = await deps.userById(ref)
  if (byId.isErr() || byId.value !== null) return byId
  return deps.users.findUser(ref)
}
