import { ok } from 'neverthrow'
import { routeTable } from '../../http/route-table.js'
import { dashboardAsset, isDashboardPath } from '../dashboard/dashboard-assets.js'
import {
  type BodyRefusal,
  CONTROL_BODY_LIMIT,
  DEFAULT_CONTROL_BULK_LIMIT,
  readControlBody,
} from './control-body.js'
import { controlGuard } from './control-guard.js'
import { CONTROL_PREFIX, type ControlParts } from './control-parts.js'
import { problem, reply } from './control-reply.js'
import { CONTROL_ROUTES } from './control-routes.js'

export { CONTROL_PREFIX, type ControlParts } from './control-parts.js'

// The rows compiled once, for every handler: paths and methods exactly as the rows write them (no HEAD,
// no trailing slash, parameters as sent).
const TABLE = routeTable(CONTROL_ROUTES, { exact: true })

function notFound(method: string, path: string): Response {
  return problem(
    404,
    `no control route ${method} ${CONTROL_PREFIX}${path} (see ${CONTROL_PREFIX}/openapi.json)`,
  )
}

/**
 * The control API of a fake authority as a web-standard handler for paths under {@link CONTROL_PREFIX}:
 * the clock, the data (reset, snapshot, restore, users and tokens with known secrets, groups and
 * projects), the journal and
 * the fault rules. `GET /__patkit/openapi.json` describes every route; docs/testing.md has recipes.
 *
 * Every request must be addressed to a loopback host or one of `allowedHosts` (else 403), must not come
 * from a web page of another origin (`Origin`, `Sec-Fetch-Site`; else 403), must carry the control
 * token when one is set (else 401), and a body must be `Content-Type: application/json` (else 415):
 * a web page the user visits can then neither drive nor read it. No CORS header is ever sent. A body
 * is read up to its route's limit and no further (64 KiB; `controlBodyLimit`, default 16 MiB, for
 * `PUT /state` and `POST /users`), else 413.
 *
 * @example
 * ```ts
 * import { type ControllableClock, controlHandler, type Faults, type Journal } from 'patkit/fake'
 * import type { TokenStore } from 'patkit/store'
 * import type { FakeState } from '../fake-state.js'
 * declare const clock: ControllableClock
 * declare const state: FakeState
 * declare const store: TokenStore
 * declare const journal: Journal
 * declare const faults: Faults
 * declare const mint: (userId: number) => string
 *
 * const control = controlHandler({ clock, state, store, journal, faults, mint })
 * await control(
 *   new Request('http://127.0.0.1/__patkit/clock/advance', {
 *     method: 'POST',
 *     headers: { 'content-type': 'application/json' },
 *     body: '{"days":7}',
 *   }),
 * )
 * ```
 */
export function controlHandler(parts: ControlParts): (request: Request) => Promise<Response> {
  const guard = controlGuard(parts)
  // The dashboard's page and assets carry no data (the page fetches everything with the control token
  // the user types in), so they are served without the token, behind the host and origin checks.
  const pageGuard = controlGuard({ allowedHosts: parts.allowedHosts })
  const bulkLimit = parts.controlBodyLimit ?? DEFAULT_CONTROL_BULK_LIMIT
  return async (request) => {
    const url = new URL(request.url)
    const path = url.pathname.slice(CONTROL_PREFIX.length) || '/'
    const method = request.method.toUpperCase()
    if (method === 'GET' && isDashboardPath(path)) {
      const pageRefusal = pageGuard(request)
      if (pageRefusal !== null) return problem(pageRefusal.status, pageRefusal.message)
      // The page's asset URLs are relative to /__patkit/.
      if (url.pathname === CONTROL_PREFIX)
        return new Response(null, { status: 308, headers: { location: `${CONTROL_PREFIX}/` } })
      return dashboardAsset(path)
    }
    const refusal = guard(request)
    if (refusal !== null) return problem(refusal.status, refusal.message)
    // A method no row of the path has is no route either: the control API answers both alike.
    const match = TABLE.match(method, path)
    if (match.kind !== 'route') return notFound(method, path)
    const row = match.row
    // Every route reads its body, within its limit, before anything else; routes without one ignore it.
    const bulk = row.body === 'bulk'
    const body =
      method === 'GET'
        ? ok<unknown, BodyRefusal>(undefined)
        : await readControlBody(request, {
            limit: bulk ? bulkLimit : CONTROL_BODY_LIMIT,
            route: `${method} ${CONTROL_PREFIX}${path}`,
            hint: bulk ? ' (patkit serve --control-body-limit raises it)' : '',
            ignore: (row.body ?? 'none') === 'none',
          })
    if (body.isErr()) {
      const { status, message } = body.error
      // The rest of a body too large is never read: the connection cannot carry another request.
      return status === 413
        ? reply(413, { error: message }, { connection: 'close' })
        : problem(status, message)
    }
    return row.serve({ parts, request, url, path: match.path, body: body.value })
  }
}
