import { ok } from 'neverthrow'
import type { TokenStore } from '../../store/token-store.js'
import type { ControllableClock } from '../controllable-clock.js'
import { dashboardAsset, isDashboardPath } from '../dashboard/dashboard-assets.js'
import type { FakeState } from '../fake-state.js'
import type { Faults } from '../faults.js'
import type { Journal } from '../journal.js'
import type { SeedReport } from '../seed/load-seed.js'
import { clockTarget, durationMs } from './clock-input.js'
import {
  type BodyRefusal,
  CONTROL_BODY_LIMIT,
  DEFAULT_CONTROL_BULK_LIMIT,
  readControlBody,
} from './control-body.js'
import { controlGuard } from './control-guard.js'
import { DASHBOARD_ROUTES, dashboardRouteKey, isDashboardRoute, serveDashboard } from './dashboard-api.js'
import { canMove } from './instant.js'
import { journalQuery } from './journal-params.js'
import { CONTROL_OPENAPI } from './openapi.js'

/**
 * Where the control API lives: a prefix GitLab never uses.
 *
 * @example
 * ```ts
 * import { CONTROL_PREFIX } from 'patkit/fake'
 * declare const url: URL
 *
 * `${url}${CONTROL_PREFIX}/clock` // 'http://127.0.0.1:3000/__patkit/clock'
 * ```
 */
export const CONTROL_PREFIX = '/__patkit'

/**
 * What the control API drives.
 *
 * @example
 * ```ts
 * import type { ControllableClock, ControlParts, Faults, Journal } from 'patkit/fake'
 * import type { TokenStore } from 'patkit/store'
 * import type { FakeState } from '../fake-state.js'
 * declare const clock: ControllableClock
 * declare const state: FakeState
 * declare const store: TokenStore
 * declare const journal: Journal
 * declare const faults: Faults
 * declare const newSecret: (userId: number) => string
 *
 * const parts: ControlParts = { clock, state, store, journal, faults, mint: (userId) => newSecret(userId) }
 * ```
 */
export interface ControlParts {
  readonly clock: ControllableClock
  readonly state: FakeState
  /** The data the dashboard's read routes list (`GET /__patkit/tokens`, `/users`, ...): the fake's store. */
  readonly store: TokenStore
  readonly journal: Journal
  readonly faults: Faults
  /** A fresh secret for a token of a user (the authority's format), for tokens added without one. */
  readonly mint: (userId: number) => string
  /** When set, every control request must carry it in `X-Patkit-Control-Token` (compared in constant time). */
  readonly controlToken?: string | undefined
  /**
   * Host names (or IP addresses) the control API answers for beside `localhost`, `127.0.0.0/8` and
   * `[::1]`: the `Host` of every request must be one of them (a defence against DNS rebinding). `*`
   * allows any host; give a `controlToken` then.
   */
  readonly allowedHosts?: readonly string[] | undefined
  /**
   * The largest body, in bytes, of `PUT /__patkit/state` and `POST /__patkit/users` (a whole data set
   * or a batch of users); default 16 MiB. Every other route reads at most 64 KiB. A larger body is
   * refused with 413 as soon as it passes the limit (or at once, when its Content-Length says so).
   */
  readonly controlBodyLimit?: number | undefined
  /** Aborted when the fake closes: every open `GET /__patkit/journal/stream` ends then. */
  readonly closing?: AbortSignal | undefined
  /** Called after the clock moved (expiry notices are emitted then). */
  readonly onClockChange?: (() => Promise<void>) | undefined
}

const jsonHeaders = { 'content-type': 'application/json' }

function reply(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { ...jsonHeaders, ...headers },
  })
}

function problem(status: number, message: string): Response {
  return reply(status, { error: message })
}

// What a reset or restore loaded, as `Counts` in the OpenAPI document.
function counted(report: SeedReport) {
  const { users, groups, projects } = report
  return { users, tokens: report.issued.length + report.restored.length, groups, projects }
}

function clockJson(clock: ControllableClock) {
  return { now: clock.now().toISOString(), frozen: clock.frozen }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)

// Every route, with whether it takes a body and whether that may be large (a restore of a whole data
// set, a batch of users).
const ROUTES: ReadonlyMap<string, { readonly body: 'none' | 'json' | 'bulk' }> = new Map([
  ['GET /openapi.json', { body: 'none' }],
  ['GET /clock', { body: 'none' }],
  ['POST /clock/set', { body: 'json' }],
  ['POST /clock/advance', { body: 'json' }],
  ['POST /clock/freeze', { body: 'none' }],
  ['POST /clock/resume', { body: 'none' }],
  ['POST /reset', { body: 'none' }],
  ['GET /state', { body: 'none' }],
  ['PUT /state', { body: 'bulk' }],
  ['POST /users', { body: 'bulk' }],
  ['POST /tokens', { body: 'json' }],
  ['POST /groups', { body: 'json' }],
  ['POST /projects', { body: 'json' }],
  ['GET /journal', { body: 'none' }],
  ['DELETE /journal', { body: 'none' }],
  ['GET /faults', { body: 'none' }],
  ['POST /faults', { body: 'json' }],
  ['DELETE /faults', { body: 'none' }],
  ['DELETE /faults/:id', { body: 'none' }],
  ...DASHBOARD_ROUTES.map((route) => [route, { body: 'none' }] as const),
])

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
  const { clock, state, journal, faults } = parts
  const guard = controlGuard(parts)
  // The dashboard's page and assets carry no data (the page fetches everything with the control token
  // the user types in), so they are served without the token, behind the host and origin checks.
  const pageGuard = controlGuard({ allowedHosts: parts.allowedHosts })
  const bulkLimit = parts.controlBodyLimit ?? DEFAULT_CONTROL_BULK_LIMIT
  const clockMoved = async () => {
    await parts.onClockChange?.()
    return reply(200, clockJson(clock))
  }
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
    const route = `${method} ${dashboardRouteKey(path.replace(/^\/faults\/[^/]+$/, '/faults/:id'))}`
    const known = ROUTES.get(route)
    if (known === undefined) return notFound(method, path)
    // Every route reads its body, within its limit, before anything else; routes without one ignore it.
    const bulk = known.body === 'bulk'
    const body =
      method === 'GET'
        ? ok<unknown, BodyRefusal>(undefined)
        : await readControlBody(request, {
            limit: bulk ? bulkLimit : CONTROL_BODY_LIMIT,
            route: `${method} ${CONTROL_PREFIX}${path}`,
            hint: bulk ? ' (patkit serve --control-body-limit raises it)' : '',
            ignore: known.body === 'none',
          })
    if (body.isErr()) {
      const { status, message } = body.error
      // The rest of a body too large is never read: the connection cannot carry another request.
      return status === 413
        ? reply(413, { error: message }, { connection: 'close' })
        : problem(status, message)
    }
    const value = body.value
    if (isDashboardRoute(route)) return serveDashboard(parts, route, request, url, path)
    switch (route) {
      case 'GET /openapi.json':
        return reply(200, CONTROL_OPENAPI)
      case 'GET /clock':
        return reply(200, clockJson(clock))
      case 'POST /clock/set': {
        const instant = clockTarget(value)
        if (typeof instant === 'string') return problem(400, instant)
        clock.set(instant)
        return clockMoved()
      }
      case 'POST /clock/advance': {
        const ms = durationMs(value)
        if (typeof ms === 'string') return problem(400, ms)
        if (!canMove(clock.now(), ms))
          return problem(400, 'the clock would leave the range of dates (about 275,000 years)')
        clock.advance(ms)
        return clockMoved()
      }
      case 'POST /clock/freeze':
        clock.freeze()
        return reply(200, clockJson(clock))
      case 'POST /clock/resume':
        clock.resume()
        return reply(200, clockJson(clock))
      case 'POST /reset': {
        const refusal = state.resetRefusal()
        if (refusal !== null) return problem(409, refusal)
        const reset = await state.reset()
        if (reset.isErr()) return reply(500, { error: 'the seed no longer loads', problems: reset.error })
        journal.clear()
        faults.clear()
        return reply(200, counted(reset.value))
      }
      case 'GET /state': {
        const snapshot = await state.snapshot()
        return snapshot.isErr() ? problem(500, 'the store failed') : reply(200, snapshot.value)
      }
      case 'PUT /state': {
        if (!state.replaceable)
          return problem(409, 'restore replaces the data, which is in a database of its own here')
        // An absent body is no request to wipe everything: emptying takes an explicit {}.
        if (!isObject(value))
          return problem(
            400,
            'the body must be a JSON object: the state to restore, {"users": [...], "tokens": [...]} (send {} to empty it)',
          )
        const restored = await state.restore(value)
        if (restored.isErr()) return reply(400, { error: 'invalid state', problems: restored.error })
        return reply(200, counted(restored.value))
      }
      case 'POST /users': {
        if (!isObject(value) && !Array.isArray(value))
          return problem(400, 'the body must be a JSON object or array: a user or users in the seed format')
        const users: unknown[] = Array.isArray(value) ? value : [value]
        const added = await state.add({ users })
        if (added.isErr()) return reply(400, { error: 'invalid user', problems: added.error })
        return reply(201, users)
      }
      case 'POST /groups':
      case 'POST /projects': {
        const kind = route === 'POST /groups' ? 'groups' : 'projects'
        const noun = kind === 'groups' ? 'group' : 'project'
        if (!isObject(value) && !Array.isArray(value))
          return problem(
            400,
            `the body must be a JSON object or array: a ${noun} or ${kind} in the seed format`,
          )
        const entries: unknown[] = Array.isArray(value) ? value : [value]
        const added = await state.add({ [kind]: entries })
        if (added.isErr()) return reply(400, { error: `invalid ${noun}`, problems: added.error })
        return reply(201, entries)
      }
      case 'POST /tokens': {
        if (!isObject(value)) {
          return problem(400, 'the body must be a JSON object: a token in the seed format')
        }
        // A token without a secret gets a fresh one, returned here and kept for snapshots like a given one.
        const userId = value['user_id']
        const token = { token: parts.mint(typeof userId === 'number' ? userId : 0), ...value }
        const added = await state.add({ tokens: [token] })
        if (added.isErr()) return reply(400, { error: 'invalid token', problems: added.error })
        const issued = added.value.issued[0]
        if (issued === undefined) return problem(409, 'this secret is already stored')
        return reply(201, { id: issued.token.id, user_id: issued.token.userId, token: issued.secret })
      }
      case 'GET /journal': {
        const query = journalQuery(url.searchParams)
        if (typeof query === 'string') return problem(400, query)
        const { entries, count } = journal.query(query)
        return reply(200, { count, dropped: journal.dropped, entries })
      }
      case 'DELETE /journal':
        journal.clear()
        return reply(204, null)
      case 'GET /faults':
        return reply(200, faults.list())
      case 'POST /faults': {
        const added = faults.add(value)
        return added.isErr() ? problem(400, added.error) : reply(201, added.value)
      }
      case 'DELETE /faults':
        faults.clear()
        return reply(204, null)
      default: // DELETE /faults/:id, the one route left
        return faults.remove(path.slice('/faults/'.length))
          ? reply(204, null)
          : problem(404, 'no such fault rule')
    }
  }
}
