import { describe, expect, it } from 'vitest'
import { hasFeature, type Release } from '../../src/authority/core/release.js'
import { createHandler } from '../../src/http/index.js'
import type { RouteRow } from '../../src/http/route.js'
import { ROUTES } from '../../src/http/routes.js'
import type { Authority } from '../../src/index.js'
import { ADMIN, ALICE } from '../support/authority-fixtures.js'
import { httpWorld } from '../support/http-fixtures.js'

// Every route goes through the one pipeline: target (404, 405, release gate) -> credentials -> the
// caller (authority.requestPrincipal: authentication, sudo, admin mode, a blocked owner) -> the
// route. These tests read the route table itself, so a row added to any module is covered.

const BASE = 'http://gitlab.test/api/v4'

/** A request path for a row: its parameters filled with ids that exist in the world below. */
function pathOf(row: RouteRow): string {
  return row.path
    .replace(':user_id', String(ALICE.id))
    .replace(':id', row.path.startsWith('/personal') ? 'self' : '1')
}

/** A body the row's use case accepts, so that its own checks (scope, access) are reached. */
function bodyOf(row: RouteRow): string | undefined {
  if (row.method !== 'POST' || row.path.endsWith('/rotate')) return undefined
  if (row.path.endsWith('/hooks')) return JSON.stringify({ url: 'http://127.0.0.1:9/hook' })
  // `POST /user/personal_access_tokens` takes GitLab's self-service scopes only.
  const scopes = row.path === '/user/personal_access_tokens' ? ['self_rotate'] : ['read_api']
  return JSON.stringify({ name: 'pipeline', scopes, expires_at: '2026-04-01' })
}

/**
 * The authority with every method logged, in call order (the HTTP layer sees only this object); a
 * group's method as `group.method`.
 */
function logged(authority: Authority): { authority: Authority; calls: string[] } {
  const calls: string[] = []
  function spy(target: object, prefix: string): Record<string, unknown> {
    const copy: Record<string, unknown> = { ...target }
    for (const [name, value] of Object.entries(target)) {
      if (typeof value === 'function') {
        copy[name] = (...args: unknown[]) => {
          calls.push(`${prefix}${name}`)
          return Reflect.apply(value, target, args)
        }
      } else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
        copy[name] = spy(value, `${prefix}${name}.`)
      }
    }
    return copy
  }
  return { authority: spy(authority, '') as unknown as Authority, calls }
}

async function world(release?: Release) {
  const w = await httpWorld(release === undefined ? {} : { release })
  const root = await w.issue(ADMIN.id, { scopes: ['api', 'sudo'] })
  const narrow = await w.issue(ADMIN.id, { scopes: ['read_repository'] })
  // Impersonation token 1 of Alice does not exist: the routes still reach the use case.
  const spied = logged(w.authority)
  const handler = createHandler(spied.authority)
  async function call(row: RouteRow, secret: string | undefined, method: string = row.method) {
    spied.calls.length = 0
    const body = method === 'GET' || method === 'HEAD' ? undefined : bodyOf(row)
    const response = await handler(
      new Request(`${BASE}${pathOf(row)}`, {
        method,
        headers: {
          ...(secret === undefined ? {} : { 'PRIVATE-TOKEN': secret }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body }),
      }),
    )
    return {
      status: response.status,
      headers: Object.fromEntries(response.headers),
      text: await response.text(),
      calls: [...spied.calls],
    }
  }
  return { ...w, root, narrow, call }
}

const rowName = (row: RouteRow) => `${row.method} ${row.path}`

describe('the route table', () => {
  it('has one row per method and path, each with a handler', () => {
    const keys = ROUTES.map(rowName)
    expect(new Set(keys).size).toBe(keys.length)
    for (const row of ROUTES) expect(typeof row.serve, rowName(row)).toBe('function')
  })

  it('declares body parameters only on routes with a body', () => {
    for (const row of ROUTES) if (row.method === 'GET') expect(row.params, rowName(row)).toBeUndefined()
  })
})

describe('every route goes through the pipeline', () => {
  it.each(ROUTES.map((row) => [rowName(row), row] as const))(
    '%s: the caller is resolved once, by the authority, before the route',
    async (_, row) => {
      const w = await world()
      const answer = await w.call(row, w.root.secret)
      expect(answer.status).toBeLessThan(500)
      if (row.caller === 'use_case') {
        // The rotation's one call: replay, authentication, sudo and the rotation in the authority.
        expect(answer.calls.filter((c) => c !== 'now')).toEqual([
          row.path.includes('/access_tokens/') ? 'resources.rotateRequest' : 'requests.rotateRequest',
        ])
        return
      }
      expect(answer.calls[0]).toBe('requests.requestPrincipal')
      expect(answer.calls.filter((c) => c === 'requests.requestPrincipal')).toHaveLength(1)
      // The HTTP layer never authenticates or applies sudo on its own.
      expect(answer.calls).not.toContain('authenticate')
      expect(answer.calls).not.toContain('requests.sudo')
    },
  )

  it.each(ROUTES.map((row) => [rowName(row), row] as const))(
    '%s: without a token, 401 unless the route serves anonymous callers',
    async (_, row) => {
      const w = await world()
      const answer = await w.call(row, undefined)
      if (row.caller === 'optional') {
        expect(answer.calls[0]).toBe('requests.requestPrincipal')
        return
      }
      expect({ status: answer.status, text: answer.text }).toEqual({
        status: 401,
        text: '{"message":"401 Unauthorized"}',
      })
      // Refused by the pipeline (or the rotation's authentication): no use case ran.
      const resolving = ['requests.requestPrincipal', 'requests.rotateRequest', 'resources.rotateRequest']
      expect(answer.calls.filter((c) => !resolving.includes(c))).toEqual([])
    },
  )

  it.each(ROUTES.filter((row) => row.method === 'GET').map((row) => [rowName(row), row] as const))(
    '%s: HEAD answers as GET, without the body',
    async (_, row) => {
      const w = await world()
      const get = await w.call(row, w.root.secret, 'GET')
      const head = await w.call(row, w.root.secret, 'HEAD')
      expect({ ...head, headers: { ...head.headers, 'content-length': undefined } }).toEqual({
        ...get,
        text: '',
        headers: { ...get.headers, 'content-length': undefined },
      })
    },
  )

  it.each(ROUTES.map((row) => [rowName(row), row] as const))(
    '%s: another method is 405 with the methods of its path, before authentication',
    async (_, row) => {
      const w = await world()
      const methods = ROUTES.filter((r) => r.path === row.path).flatMap((r) =>
        r.method === 'GET' ? ['GET', 'HEAD'] : [r.method],
      )
      // A method the path has no row for (hooks have PUT rows).
      const answer = await w.call(row, w.root.secret, methods.includes('PUT') ? 'PATCH' : 'PUT')
      expect({ status: answer.status, allow: answer.headers['allow'], calls: answer.calls }).toEqual({
        status: 405,
        allow: methods.join(', '),
        calls: [],
      })
    },
  )

  it.each(ROUTES.filter((row) => row.since !== undefined).map((row) => [rowName(row), row] as const))(
    '%s: before its release, no route at all (404 before authentication)',
    async (_, row) => {
      // 15.0 predates most gated routes; the project and group token routes are older.
      const release: Release = row.since !== undefined && hasFeature(row.since, '15.0') ? '13.8' : '15.0'
      const w = await world(release)
      expect(row.since !== undefined && hasFeature(row.since, release)).toBe(false)
      const answer = await w.call(row, w.root.secret)
      expect({ status: answer.status, text: answer.text, calls: answer.calls }).toEqual({
        status: 404,
        text: '{"error":"404 Not Found"}',
        calls: [],
      })
    },
  )

  it.each(ROUTES.filter((row) => row.scopes !== undefined).map((row) => [rowName(row), row] as const))(
    '%s: a token without the declared scopes is refused with exactly them',
    async (_, row) => {
      const w = await world()
      const answer = await w.call(row, w.narrow.secret)
      expect(answer.status).toBe(403)
      expect(JSON.parse(answer.text)).toEqual({
        error: 'insufficient_scope',
        error_description: 'The request requires higher privileges than provided by the access token.',
        scope: row.scopes?.join(' '),
      })
    },
  )

  it('an unknown body parameter is refused after authentication, before the route', async () => {
    const w = await world()
    for (const row of ROUTES.filter((r) => r.params !== undefined)) {
      const handler = createHandler(w.authority)
      const request = (secret?: string) =>
        handler(
          new Request(`${BASE}${pathOf(row)}`, {
            method: row.method,
            headers: {
              'content-type': 'application/json',
              ...(secret === undefined ? {} : { 'PRIVATE-TOKEN': secret }),
            },
            body: JSON.stringify({ surprise: 1 }),
          }),
        )
      const anonymous = await request()
      expect(anonymous.status, rowName(row)).toBe(401)
      const refused = await request(w.root.secret)
      expect([refused.status, await refused.text()], rowName(row)).toEqual([
        400,
        '{"error":"surprise is not a known parameter"}',
      ])
    }
  })
})
