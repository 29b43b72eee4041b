import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROUTES } from '../../src/http/routes.js'
import { readmeRoutes } from './readme-routes.js'

// Issue 32: README's route table named no project or group access token or service account route. Every
// route the handler serves (the route table, src/http/routes.ts) is named there, and nothing else is.

const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8')
const served = ROUTES.map((row) => `${row.method} ${row.path}`)

describe("README's route table", () => {
  it('names every route the handler serves, and no route it does not serve', () => {
    const named = readmeRoutes(readme)
    expect(served.filter((route) => !named.has(route))).toEqual([])
    expect([...named].filter((route) => !served.includes(route))).toEqual([])
  })

  it('fails for a table without a route', () => {
    const without = readme.replace('`GET /groups/:id/service_accounts`, ', '')
    expect(readmeRoutes(without).has('GET /groups/:id/service_accounts')).toBe(false)
    expect(() => readmeRoutes('# no table here')).toThrow(/no route table/)
  })
})
