import { err, ok, type Result } from 'neverthrow'
import { invalidParameter } from '../../domain/error-constructors.js'
import type { ResourceRef } from '../../domain/resource.js'
import { listParamsParser } from '../../http/list-params.js'
import { type InvalidParameter, lastValue, parseId } from '../../http/request-params.js'
import type { ListQuery, TokenFilter } from '../../query/filter.js'
import type { TokenStore } from '../../store/token-store.js'
import { tokenRow } from './dashboard-json.js'
import { messageReply, pageReply, parameterRefusal } from './dashboard-reply.js'

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

// `resource_type` and `resource_id` go together (Grape's all_or_none); the type is project or group.
function resourceOf(params: URLSearchParams): Result<ResourceRef | null, InvalidParameter> {
  const type = lastValue(params, 'resource_type')
  const id = lastValue(params, 'resource_id')
  if ((type === undefined || type === '') && (id === undefined || id === '')) return ok(null)
  if (type === undefined || type === '' || id === undefined || id === '')
    return err(invalidParameter('resource_type, resource_id', 'all_or_none'))
  if (type !== 'project' && type !== 'group')
    return err(invalidParameter('resource_type', 'not_allowed_value'))
  return parseId(id, 'resource_id').map((resourceId) => ({ type, id: resourceId }))
}

/**
 * `GET /__patkit/tokens`: every user's tokens through the store's list (the query engine, paged in the
 * store), with GitLab's list parameters as `GET /personal_access_tokens` reads them, `user_id` an
 * integer id, and `resource_type` + `resource_id` for the tokens of a project's or group's bots.
 */
export async function listTokens(store: TokenStore, url: URL, now: Date): Promise<Response> {
  const params = url.searchParams
  const parsed = (await listParamsParser())(params)
  if (parsed.isErr()) return parameterRefusal(parsed.error)
  const { userRef, sort, page } = parsed.value
  const filter: Mutable<TokenFilter> = { ...parsed.value.filter }
  if (userRef !== undefined && userRef !== '') {
    const userId = parseId(userRef, 'user_id')
    if (userId.isErr()) return parameterRefusal(userId.error)
    filter.userId = userId.value
  }
  const resource = resourceOf(params)
  if (resource.isErr()) return parameterRefusal(resource.error)
  if (resource.value !== null) {
    const { type, id } = resource.value
    const found =
      store.resources === undefined
        ? null
        : type === 'project'
          ? await store.resources.findProject(id)
          : await store.resources.findGroup(id)
    if (found?.isErr() === true) return messageReply(500, '500 Internal Server Error')
    if (found === null || found.isErr() || found.value === null)
      return messageReply(404, `404 ${type === 'project' ? 'Project' : 'Group'} Not Found`)
    filter.resource = resource.value
  }
  const query: ListQuery = { filter, sort, page, now }
  const listed = await store.list(query)
  if (listed.isErr()) return messageReply(500, '500 Internal Server Error')
  const { items, total } = listed.value
  return pageReply(
    items.map((token) => tokenRow(token, now)),
    total,
    page,
    url,
  )
}
