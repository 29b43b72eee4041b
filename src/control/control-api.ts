import { controlGuard, JSON_ONLY } from './control-guard.js'
import type { ControllableClock } from './controllable-clock.js'
import type { FakeState } from './fake-state.js'
import type { Faults } from './faults.js'
import { canMove, parseZonedInstant } from './instant.js'
import type { Journal, JournalQuery } from './journal.js'
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
 * import type { FakeState } from './fake-state.js'
 * declare const clock: ControllableClock
 * declare const state: FakeState
 * declare const journal: Journal
 * declare const faults: Faults
 * declare const newSecret: (userId: number) => string
 *
 * const parts: ControlParts = { clock, state, journal, faults, mint: (userId) => newSecret(userId) }
 * ```
 */
export interface ControlParts {
  readonly clock: ControllableClock
  readonly state: FakeState
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
  /** Called after the clock moved (expiry notices are emitted then). */
  readonly onClockChange?: (() => Promise<void>) | undefined
}

const jsonHeaders = { 'content-type': 'application/json' }

function reply(status: number, body: unknown): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), { status, headers: jsonHeaders })
}

function problem(status: number, message: string): Response {
  return reply(status, { error: message })
}

async function readJson(
  request: Request,
): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> {
  const text = await request.text()
  if (text.trim() === '') return { ok: true, value: {} }
  // The guard refuses a body announced without a type; this one came without Content-Length.
  if (request.headers.get('content-type') === null) return { ok: false, response: problem(415, JSON_ONLY) }
  try {
    return { ok: true, value: JSON.parse(text) as unknown }
  } catch {
    return { ok: false, response: problem(400, 'the body must be JSON') }
  }
}

const UNITS_MS: Readonly<Record<string, number>> = {
  ms: 1,
  seconds: 1000,
  minutes: 60_000,
  hours: 3_600_000,
  days: 86_400_000,
}

// `{ "days": 7, "hours": 1 }` or `{ "ms": 500 }`: the sum, or a sentence saying what is wrong.
function durationMs(body: unknown): number | string {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    return 'the body must be a JSON object'
  const entries = Object.entries(body)
  if (entries.length === 0) return `give one or more of ${Object.keys(UNITS_MS).join(', ')}`
  let total = 0
  for (const [unit, amount] of entries) {
    const scale = UNITS_MS[unit]
    if (scale === undefined) return `${unit} is not a unit (${Object.keys(UNITS_MS).join(', ')})`
    if (typeof amount !== 'number' || !Number.isFinite(amount)) return `${unit} must be a number`
    total += amount * scale
  }
  return Math.round(total)
}

function clockJson(clock: ControllableClock) {
  return { now: clock.now().toISOString(), frozen: clock.frozen }
}

const INTEGER = /^-?\d+$/

function journalQuery(params: URLSearchParams): JournalQuery | string {
  const query: Record<string, unknown> = {}
  for (const [name, key] of [
    ['kind', 'kind'],
    ['method', 'method'],
    ['path', 'pathContains'],
    ['type', 'type'],
  ] as const) {
    const value = params.get(name)
    if (value !== null && value !== '') query[key] = value
  }
  if (query['kind'] !== undefined && query['kind'] !== 'request' && query['kind'] !== 'event') {
    return 'kind must be request or event'
  }
  for (const [name, key] of [
    ['status', 'status'],
    ['token_id', 'tokenId'],
    ['user_id', 'userId'],
    ['after', 'afterSeq'],
    ['limit', 'limit'],
  ] as const) {
    const value = params.get(name)
    if (value === null || value === '') continue
    if (!INTEGER.test(value)) return `${name} must be an integer`
    query[key] = Number(value)
  }
  return query as JournalQuery
}

/**
 * The control API of a fake authority as a web-standard handler for paths under {@link CONTROL_PREFIX}:
 * the clock, the data (reset, snapshot, restore, users and tokens with known secrets), the journal and
 * the fault rules. `GET /__patkit/openapi.json` describes every route; docs/testing.md has recipes.
 *
 * Every request must be addressed to a loopback host or one of `allowedHosts` (else 403), must not come
 * from a web page of another origin (`Origin`, `Sec-Fetch-Site`; else 403), must carry the control
 * token when one is set (else 401), and a body must be `Content-Type: application/json` (else 415):
 * a web page the user visits can then neither drive nor read it. No CORS header is ever sent.
 *
 * @example
 * ```ts
 * import { type ControllableClock, controlHandler, type Faults, type Journal } from 'patkit/fake'
 * import type { FakeState } from './fake-state.js'
 * declare const clock: ControllableClock
 * declare const state: FakeState
 * declare const journal: Journal
 * declare const faults: Faults
 * declare const mint: (userId: number) => string
 *
 * const control = controlHandler({ clock, state, journal, faults, mint })
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
  const clockMoved = async () => {
    await parts.onClockChange?.()
    return reply(200, clockJson(clock))
  }
  return async (request) => {
    const url = new URL(request.url)
    const path = url.pathname.slice(CONTROL_PREFIX.length) || '/'
    const method = request.method.toUpperCase()
    const refusal = guard(request)
    if (refusal !== null) return problem(refusal.status, refusal.message)
    const route = `${method} ${path.replace(/^\/faults\/[^/]+$/, '/faults/:id')}`
    switch (route) {
      case 'GET /openapi.json':
        return reply(200, CONTROL_OPENAPI)
      case 'GET /clock':
        return reply(200, clockJson(clock))
      case 'POST /clock/set': {
        const body = await readJson(request)
        if (!body.ok) return body.response
        const at = (body.value as { at?: unknown }).at
        const instant = typeof at === 'string' ? parseZonedInstant(at) : null
        if (instant === null) return problem(400, 'at must be an ISO 8601 instant with Z or an offset')
        clock.set(instant)
        return clockMoved()
      }
      case 'POST /clock/advance': {
        const body = await readJson(request)
        if (!body.ok) return body.response
        const ms = durationMs(body.value)
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
        if (!state.replaceable)
          return problem(409, 'reset replaces the data, which is in a database of its own here')
        const reset = await state.reset()
        if (reset.isErr()) return reply(500, { error: 'the seed no longer loads', problems: reset.error })
        journal.clear()
        faults.clear()
        return reply(200, {
          users: reset.value.users,
          tokens: reset.value.issued.length + reset.value.restored.length,
        })
      }
      case 'GET /state': {
        const snapshot = await state.snapshot()
        return snapshot.isErr() ? problem(500, 'the store failed') : reply(200, snapshot.value)
      }
      case 'PUT /state': {
        if (!state.replaceable)
          return problem(409, 'restore replaces the data, which is in a database of its own here')
        const body = await readJson(request)
        if (!body.ok) return body.response
        const restored = await state.restore(body.value)
        if (restored.isErr()) return reply(400, { error: 'invalid state', problems: restored.error })
        return reply(200, {
          users: restored.value.users,
          tokens: restored.value.issued.length + restored.value.restored.length,
        })
      }
      case 'POST /users': {
        const body = await readJson(request)
        if (!body.ok) return body.response
        const users = Array.isArray(body.value) ? body.value : [body.value]
        const added = await state.add({ users })
        if (added.isErr()) return reply(400, { error: 'invalid user', problems: added.error })
        return reply(201, users)
      }
      case 'POST /tokens': {
        const body = await readJson(request)
        if (!body.ok) return body.response
        if (body.value === null || typeof body.value !== 'object' || Array.isArray(body.value)) {
          return problem(400, 'the body must be a JSON object: a token in the seed format')
        }
        // A token without a secret gets a fresh one, returned here and kept for snapshots like a given one.
        const userId = (body.value as { user_id?: unknown }).user_id
        const token = { token: parts.mint(typeof userId === 'number' ? userId : 0), ...body.value }
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
        const body = await readJson(request)
        if (!body.ok) return body.response
        const added = faults.add(body.value)
        return added.isErr() ? problem(400, added.error) : reply(201, added.value)
      }
      case 'DELETE /faults':
        faults.clear()
        return reply(204, null)
      case 'DELETE /faults/:id':
        return faults.remove(path.slice('/faults/'.length))
          ? reply(204, null)
          : problem(404, 'no such fault rule')
      default:
        return problem(
          404,
          `no control route ${method} ${CONTROL_PREFIX}${path} (see ${CONTROL_PREFIX}/openapi.json)`,
        )
    }
  }
}
