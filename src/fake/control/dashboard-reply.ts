import { errorResponse } from '../../http/error-response.js'
import { paginationHeaders } from '../../http/pagination-headers.js'
import type { InvalidParameter } from '../../http/request-params.js'
import type { PageRequest } from '../../query/filter.js'
import { paginate } from '../../query/pagination.js'

// The answers of the dashboard's read routes: GitLab's bodies and pagination headers, so the page
// (and a test) reads them as it reads GitLab's.

const JSON_TYPE = { 'content-type': 'application/json' }

/** One page of a list with GitLab's pagination headers (X-Total, X-Page, Link, ...). */
export function pageReply(rows: readonly unknown[], total: number, page: PageRequest, url: URL): Response {
  return new Response(JSON.stringify(rows), {
    status: 200,
    headers: { ...JSON_TYPE, ...paginationHeaders(paginate(total, page), url, undefined) },
  })
}

/** Grape's 400 for a bad parameter: `{"error":"user_id is invalid"}`. */
export function parameterRefusal(error: InvalidParameter): Response {
  return errorResponse(error)
}

/** GitLab's `{"message": "..."}` with a status. */
export function messageReply(status: number, text: string): Response {
  return new Response(JSON.stringify({ message: text }), { status, headers: JSON_TYPE })
}

/** A JSON body with status 200. */
export function okReply(body: unknown): Response {
  return new Response(JSON.stringify(body), { status: 200, headers: JSON_TYPE })
}
