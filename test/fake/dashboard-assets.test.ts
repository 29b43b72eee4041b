import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DASHBOARD_CSP } from '../../src/fake/dashboard/dashboard-assets.js'
import { createFakeGitLab } from '../../src/fake/fake-gitlab.js'

// The dashboard's page and assets: the strict CSP and nosniff on each, served without the control
// token (the page holds no data) but behind the host and origin checks; its data routes need the token.

const root = join(import.meta.dirname, '..', '..')
const TOKEN = 'assets-test-control-token'
const start = () => createFakeGitLab({ controlToken: TOKEN })
let gitlab: Awaited<ReturnType<typeof start>> | undefined

beforeAll(async () => {
  execFileSync(process.execPath, [join(root, 'scripts', 'build-dashboard.mjs')])
  gitlab = await start()
})
afterAll(() => gitlab?.close())

function url(path: string): string {
  if (gitlab === undefined) throw new Error('the fake did not start')
  return `${gitlab.url}${path}`
}

describe('the dashboard assets', () => {
  it.for([
    ['/__patkit/', 'text/html', '<div id="app">'],
    ['/__patkit/dashboard/dashboard.js', 'text/javascript', ''],
    ['/__patkit/dashboard/dashboard.css', 'text/css', ''],
  ] as const)('GET %s answers %s with the CSP, without the control token', async ([path, type, text]) => {
    const response = await fetch(url(path))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toContain(type)
    expect(response.headers.get('content-security-policy')).toBe(DASHBOARD_CSP)
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(await response.text()).toContain(text)
  })

  it('names no other origin: no CDN, no inline script', async () => {
    const html = await (await fetch(url('/__patkit/'))).text()
    expect(html).not.toMatch(/https?:\/\//)
    // Every script from a file; no inline style or event handler attribute.
    expect(html.match(/<script[^>]*>/g)).toEqual(['<script type="module" src="dashboard/dashboard.js">'])
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/)
    const js = await (await fetch(url('/__patkit/dashboard/dashboard.js'))).text()
    expect(js).not.toMatch(/https?:\/\/(?!www\.w3\.org)[a-z]/)
  })

  it('redirects /__patkit to /__patkit/, where the relative asset URLs resolve', async () => {
    const response = await fetch(url('/__patkit'), { redirect: 'manual' })
    expect(response.status).toBe(308)
    expect(response.headers.get('location')).toBe('/__patkit/')
  })

  it('refuses another host and a page of another origin; the data routes need the token', async () => {
    const { request } = await import('node:http')
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(url('/__patkit/'), { headers: { host: 'attacker.example' } }, (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      req.on('error', reject)
      req.end()
    })
    expect(status).toBe(403)
    const crossOrigin = await fetch(url('/__patkit/'), { headers: { origin: 'https://attacker.example' } })
    expect(crossOrigin.status).toBe(403)
    expect((await fetch(url('/__patkit/tokens'))).status).toBe(401)
    const allowed = await fetch(url('/__patkit/tokens'), { headers: { 'x-patkit-control-token': TOKEN } })
    expect(allowed.status).toBe(200)
  })
})
