import { describe, expect, it } from 'vitest'
import { routeTable } from '../../src/http/route-table.js'

// The route table serves any kind of row: it reads a row's method, path and requirements, and hands
// the row back as it was given. GitLab's API reads paths leniently; `exact` reads them as written.

interface NamedRow {
  readonly method: 'GET' | 'POST'
  readonly path: string
  readonly name: string
}

const ROWS: readonly NamedRow[] = [
  { method: 'GET', path: '/items', name: 'list' },
  { method: 'POST', path: '/items', name: 'add' },
  { method: 'GET', path: '/items/:id', name: 'one' },
]

describe('routeTable over rows of any type', () => {
  it("gives back the caller's own row with the path's parameters", () => {
    const match = routeTable(ROWS).match('GET', '/items/a%2Fb')
    expect(match.kind === 'route' ? [match.row.name, match.path] : match).toEqual(['one', { id: 'a/b' }])
  })

  it('by default: HEAD is served by the GET row, a trailing slash is ignored, a wrong method is a 405', () => {
    const table = routeTable(ROWS)
    const head = table.match('HEAD', '/items/')
    expect(head.kind === 'route' ? head.row.name : head).toBe('list')
    expect(table.match('DELETE', '/items')).toEqual({ kind: 'method_not_allowed', allow: 'GET, HEAD, POST' })
  })

  it('exact: no HEAD, no trailing slash, parameters as sent', () => {
    const table = routeTable(ROWS, { exact: true })
    expect(table.match('HEAD', '/items').kind).toBe('method_not_allowed')
    expect(table.match('DELETE', '/items')).toEqual({ kind: 'method_not_allowed', allow: 'GET, POST' })
    expect(table.match('GET', '/items/').kind).toBe('not_found')
    const match = table.match('GET', '/items/a%2Fb')
    expect(match.kind === 'route' ? match.path : match).toEqual({ id: 'a%2Fb' })
  })
})
