import { afterEach, describe, expect, it } from 'vitest'
import { CONTROL_PREFIX } from '../../src/fake/control/control-parts.js'
import { CONTROL_OPENAPI, CONTROL_ROUTES } from '../../src/fake/control/control-routes.js'
import { documentPath } from '../../src/fake/control/openapi.js'
import { createFakeGitLab, type FakeGitLab } from '../../src/fake/fake-gitlab.js'

// The control API's rows are its routes and its document: what the table serves is what the
// OpenAPI document lists, and the table reads paths and methods exactly as the rows write them.

describe('the OpenAPI document is the rows', () => {
  const documented = Object.entries(CONTROL_OPENAPI.paths).flatMap(([path, operations]) =>
    Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
  )

  it("lists every row's path and method, and nothing else", () => {
    const rows = CONTROL_ROUTES.map((row) => `${row.method} ${documentPath(row)}`)
    expect(new Set(rows).size).toBe(rows.length)
    expect([...documented].sort()).toEqual([...rows].sort())
    expect(documented).toContain('POST /__patkit/clock/advance')
    expect(documented).toContain('DELETE /__patkit/faults/{id}')
  })

  it('every row has a summary and an operationId of its own, and documents each path parameter', () => {
    for (const row of CONTROL_ROUTES) {
      expect(row.doc.summary.trim(), `${row.method} ${row.path}`).not.toBe('')
      const names = [...row.path.matchAll(/:([^/]+)/g)].map((found) => found[1])
      expect(Object.keys(row.pathSchemas ?? {}), `${row.method} ${row.path}`).toEqual(names)
    }
    const ids = CONTROL_ROUTES.map((row) => row.doc.operationId)
    expect(new Set(ids).size).toBe(ids.length)
  })
})

describe('the control table reads paths and methods as the rows write them', () => {
  const running: FakeGitLab[] = []
  afterEach(async () => {
    await Promise.all(running.splice(0).map((gitlab) => gitlab.close()))
  })

  async function control(method: string, path: string) {
    const gitlab = await createFakeGitLab({ users: [{ id: 1, username: 'root', admin: true }] })
    running.push(gitlab)
    const response = await fetch(`${gitlab.url}${CONTROL_PREFIX}${path}`, { method })
    return { status: response.status, allow: response.headers.get('allow'), text: await response.text() }
  }

  const noRoute = (method: string, path: string) =>
    JSON.stringify({
      error: `no control route ${method} ${CONTROL_PREFIX}${path} (see ${CONTROL_PREFIX}/openapi.json)`,
    })

  it.each([
    ['a method no row of the path has', 'PUT', '/clock'],
    ['a method no row of the path has', 'DELETE', '/clock/advance'],
    ['a trailing slash', 'GET', '/clock/'],
    ['an empty parameter', 'DELETE', '/faults/'],
  ])('%s is no control route: 404, no Allow (%s %s)', async (_, method, path) => {
    expect(await control(method, path)).toEqual({ status: 404, allow: null, text: noRoute(method, path) })
  })

  it('HEAD is no control route, not even on a GET row', async () => {
    const { status, allow } = await control('HEAD', '/clock')
    expect([status, allow]).toEqual([404, null])
  })

  it('a path parameter reaches its route as sent, not percent-decoded', async () => {
    const gitlab = await createFakeGitLab({})
    running.push(gitlab)
    const add = await fetch(`${gitlab.url}/__patkit/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: '/api/v4/user', status: 503 }),
    })
    const { id } = (await add.json()) as { id: string }
    expect(id).toBe('fault-1')
    const encoded = await fetch(`${gitlab.url}/__patkit/faults/fault%2D1`, { method: 'DELETE' })
    expect([encoded.status, await encoded.json()]).toEqual([404, { error: 'no such fault rule' }])
    const plain = await fetch(`${gitlab.url}/__patkit/faults/fault-1`, { method: 'DELETE' })
    expect(plain.status).toBe(204)
  })
})
