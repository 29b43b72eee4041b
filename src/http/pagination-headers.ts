import type { Pagination } from '../query/pagination.js'
import { jsonText, type Reply } from './responses.js'

/**
 * GitLab's offset pagination headers. `Link` holds absolute URLs in exactly the form
 * `<URL>; rel="next"`, joined by `, ` (gitbeaker parses only this form; python-gitlab follows the
 * URL). Each URL is the request's, with every query parameter kept (sorted by name, as Rails'
 * `to_query` does) and `page`/`per_page` set, except `private_token`: a secret never goes into a
 * header.
 */
export function paginationHeaders(
  pagination: Pagination,
  requestUrl: URL,
  publicUrl: URL | undefined,
): Record<string, string> {
  const base = new URL(requestUrl.pathname, publicUrl ?? requestUrl.origin)
  if (publicUrl !== undefined && publicUrl.pathname !== '/') {
    base.pathname = publicUrl.pathname.replace(/\/$/, '') + requestUrl.pathname
  }
  const link = (page: number, rel: string): string => {
    const params = new Map<string, string>()
    for (const [k, v] of requestUrl.searchParams) if (k !== 'private_token') params.set(k, v)
    params.set('page', String(page))
    params.set('per_page', String(pagination.perPage))
    const query = new URLSearchParams([...params].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    return `<${base.origin}${base.pathname}?${query}>; rel="${rel}"`
  }
  const links: string[] = []
  if (pagination.prevPage !== null) links.push(link(pagination.prevPage, 'prev'))
  if (pagination.nextPage !== null) links.push(link(pagination.nextPage, 'next'))
  links.push(link(1, 'first'), link(pagination.totalPages, 'last'))
  return {
    'x-total': String(pagination.total),
    'x-total-pages': String(pagination.totalPages),
    'x-page': String(pagination.page),
    'x-per-page': String(pagination.perPage),
    'x-next-page': pagination.nextPage === null ? '' : String(pagination.nextPage),
    'x-prev-page': pagination.prevPage === null ? '' : String(pagination.prevPage),
    link: links.join(', '),
  }
}

/** 200 with a page of items each already written as JSON text, and GitLab's pagination headers. */
export function jsonTextPage(
  items: readonly string[],
  pagination: Pagination,
  requestUrl: URL,
  publicUrl: URL | undefined,
): Reply {
  return jsonText(200, `[${items.join(',')}]`, paginationHeaders(pagination, requestUrl, publicUrl))
}
