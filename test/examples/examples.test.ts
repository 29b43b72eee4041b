import { type ChildProcess, spawn } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { NextRequest } from 'next/server.js'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_SECRETS } from '../../examples/demo-authority.js'
import { start as startExpress } from '../../examples/express.js'
import { start as startFastify } from '../../examples/fastify.js'
import { start as startHono } from '../../examples/hono.js'
import type { Started } from '../../examples/listen.js'
import { start as startNodeHttp } from '../../examples/node-http.js'

const root = join(import.meta.dirname, '..', '..')

const EXAMPLES = [
  { name: 'node-http', start: startNodeHttp, echo: false },
  { name: 'express', start: startExpress, echo: true },
  { name: 'fastify', start: startFastify, echo: true },
  { name: 'hono', start: startHono, echo: false },
] as const

/** `YYYY-MM-DD` plus whole days, in UTC: pure string arithmetic, no clock. */
function plusDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number)
  return new Date(Date.UTC(y ?? 0, (m ?? 1) - 1, (d ?? 1) + days)).toISOString().slice(0, 10)
}

async function call(
  url: string,
  method: string,
  secret: string | undefined,
  body?: string,
): Promise<{ status: number; headers: Headers; text: string }> {
  const headers: Record<string, string> = {}
  if (secret !== undefined) headers['PRIVATE-TOKEN'] = secret
  if (body !== undefined) headers['content-type'] = 'application/json'
  const response = await fetch(url, {
    method,
    headers,
    ...(body === undefined ? {} : { body }),
    signal: AbortSignal.timeout(10_000),
  })
  return { status: response.status, headers: response.headers, text: await response.text() }
}

describe.each(EXAMPLES)('examples/$name.ts', ({ start, echo }) => {
  let server: Started
  let api: string
  beforeAll(async () => {
    server = await start(0)
    api = `${server.url}/api/v4`
  })
  afterAll(async () => {
    await server.close()
  })

  it('listens on 127.0.0.1 with the real port', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*$/)
  })

  it('GET /personal_access_tokens/self answers 200 with the token JSON', async () => {
    const r = await call(`${api}/personal_access_tokens/self`, 'GET', DEMO_SECRETS.alice)
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toBe('application/json')
    expect(JSON.parse(r.text)).toMatchObject({
      id: 2,
      name: 'laptop',
      user_id: 2,
      active: true,
      revoked: false,
    })
  })

  it('lists with pagination headers whose Link URLs point back at this server', async () => {
    const r = await call(`${api}/personal_access_tokens?per_page=2`, 'GET', DEMO_SECRETS.alice)
    expect(r.status).toBe(200)
    expect((JSON.parse(r.text) as { id: number }[]).map((t) => t.id)).toEqual([2, 3])
    expect(r.headers.get('x-total')).toBe('3')
    expect(r.headers.get('x-total-pages')).toBe('2')
    expect(r.headers.get('x-next-page')).toBe('2')
    expect(r.headers.get('link')).toContain(`<${api}/personal_access_tokens?page=2&per_page=2>; rel="next"`)
  })

  it('rotates by id and /self/rotate with a JSON body that reaches patkit', async () => {
    // No clock in the test: the default expiry (today + 7) of a first rotation gives "today".
    const byId = await call(`${api}/personal_access_tokens/3/rotate`, 'POST', DEMO_SECRETS.alice, '{}')
    expect(byId.status).toBe(200)
    const defaultExpiry = (JSON.parse(byId.text) as { expires_at: string }).expires_at
    // A day later than the default, so an expires_at lost to a framework's body parser would show.
    const wanted = plusDays(defaultExpiry, 1)
    const self = await call(
      `${api}/personal_access_tokens/self/rotate`,
      'POST',
      DEMO_SECRETS.alice,
      JSON.stringify({ expires_at: wanted }),
    )
    expect(self.status).toBe(200)
    const rotated = JSON.parse(self.text) as { token: string; expires_at: string; name: string }
    expect(rotated).toMatchObject({ name: 'laptop', expires_at: wanted })
    expect(rotated.token).toMatch(/^glpat-/)
    const again = await call(`${api}/personal_access_tokens/self`, 'GET', rotated.token)
    expect(again.status).toBe(200)
  })

  it('DELETE with a {} JSON body answers 204 with an empty body', async () => {
    const r = await call(`${api}/personal_access_tokens/4`, 'DELETE', DEMO_SECRETS.root, '{}')
    expect(r.status).toBe(204)
    expect(r.text).toBe('')
    const gone = await call(`${api}/personal_access_tokens/4`, 'GET', DEMO_SECRETS.root)
    expect(JSON.parse(gone.text)).toMatchObject({ id: 4, revoked: true, active: false })
  })

  it('a malformed JSON body gets patkit’s 400, not the framework’s', async () => {
    const r = await call(
      `${api}/personal_access_tokens/self/rotate`,
      'POST',
      DEMO_SECRETS.root,
      '{"expires_at":',
    )
    expect(r.status).toBe(400)
    expect(JSON.parse(r.text)).toEqual({ error: 'body is not valid JSON' })
  })

  it('an unknown route under /api/v4 is 404 JSON', async () => {
    const r = await call(`${api}/no_such_route`, 'GET', DEMO_SECRETS.root)
    expect(r.status).toBe(404)
    expect(r.headers.get('content-type')).toBe('application/json')
    expect(JSON.parse(r.text)).toEqual({ error: '404 Not Found' })
  })

  it('HEAD answers like GET, without a body', async () => {
    const r = await call(`${api}/personal_access_tokens/self`, 'HEAD', DEMO_SECRETS.root)
    expect(r.status).toBe(200)
    expect(r.text).toBe('')
  })

  it('protects its own GET /me with one call: 200 with the caller for a token with a read scope', async () => {
    // root's token: alice's was rotated by a test above.
    const r = await call(`${server.url}/me`, 'GET', DEMO_SECRETS.root)
    expect(r.status).toBe(200)
    expect(JSON.parse(r.text)).toEqual({ username: 'root', scopes: ['api'] })
    // The same token through Authorization: Bearer, as GitLab accepts it.
    const bearer = await fetch(`${server.url}/me`, {
      headers: { authorization: `Bearer ${DEMO_SECRETS.root}` },
    })
    expect(bearer.status).toBe(200)
    expect(await bearer.json()).toEqual({ username: 'root', scopes: ['api'] })
  })

  it('GET /me without a token or with an unknown one: 401, GitLab’s body, a Bearer challenge', async () => {
    const none = await call(`${server.url}/me`, 'GET', undefined)
    expect(none.status).toBe(401)
    expect(none.text).toBe('{"message":"401 Unauthorized"}')
    expect(none.headers.get('content-type')).toBe('application/json')
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="patkit example"')
    const unknown = await call(`${server.url}/me`, 'GET', 'glpat-no-such-token')
    expect(unknown.status).toBe(401)
    expect(unknown.headers.get('www-authenticate')).toBe(
      'Bearer realm="patkit example", error="invalid_token"',
    )
  })

  it('GET /me with a token without a read scope: 403 insufficient_scope, in the body and the challenge', async () => {
    const r = await call(`${server.url}/me`, 'GET', DEMO_SECRETS.rootReader)
    expect(r.status).toBe(403)
    expect(JSON.parse(r.text)).toEqual({
      error: 'insufficient_scope',
      error_description: 'The request requires higher privileges than provided by the access token.',
      scope: 'read_api api',
    })
    expect(r.headers.get('www-authenticate')).toBe(
      'Bearer realm="patkit example", error="insufficient_scope", error_description="The request requires higher privileges than provided by the access token.", scope="read_api api"',
    )
  })

  // Only the framework examples have routes of their own.
  if (echo) {
    it('the application’s own routes still parse JSON bodies', async () => {
      const r = await call(`${server.url}/echo`, 'POST', undefined, '{"a":1}')
      expect(r.status).toBe(200)
      expect(JSON.parse(r.text)).toEqual({ received: { a: 1 } })
    })
  }
})

describe('examples run standalone (node --import tsx, as `npx tsx examples/<name>.ts`)', () => {
  let child: ChildProcess | undefined
  afterEach(() => {
    child?.kill('SIGTERM')
    child = undefined
  })

  it.each(EXAMPLES.map((e) => e.name))(
    '%s prints its URL and serves',
    async (name) => {
      const proc = spawn(process.execPath, ['--import', 'tsx', join('examples', `${name}.ts`)], {
        cwd: root,
        env: { ...process.env, PORT: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      child = proc
      let stderr = ''
      proc.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString()
      })
      const line = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no output within 20 s; stderr: ${stderr}`)), 20_000)
        const lines = createInterface({ input: proc.stdout ?? process.stdin })
        lines.once('line', (l) => {
          clearTimeout(timer)
          resolve(l)
        })
        proc.once('exit', (code) => {
          clearTimeout(timer)
          reject(new Error(`exited with ${code}; stderr: ${stderr}`))
        })
      })
      const url = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line)?.[1]
      expect(url, line).toBeDefined()
      const r = await call(`${url}/api/v4/personal_access_tokens/self`, 'GET', DEMO_SECRETS.alice)
      expect(r.status).toBe(200)
    },
    30_000,
  )
})

describe('examples/next: App Router route handlers, called as Next.js calls them', () => {
  const context = { params: Promise.resolve({}) }

  it('app/me/route.ts: 200 with the caller, for a NextRequest with a read-scoped token', async () => {
    const { GET } = await import('../../examples/next/app/me/route.js')
    const response = await GET(
      new NextRequest('http://localhost:3000/me', { headers: { 'PRIVATE-TOKEN': DEMO_SECRETS.alice } }),
      context,
    )
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ username: 'alice', scopes: ['api'] })
  })

  it('app/me/route.ts: 401 with a Bearer challenge without a token', async () => {
    const { GET } = await import('../../examples/next/app/me/route.js')
    const response = await GET(new NextRequest('http://localhost:3000/me'), context)
    expect(response.status).toBe(401)
    expect(await response.text()).toBe('{"message":"401 Unauthorized"}')
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="patkit example"')
  })

  it('app/me/route.ts: 403 insufficient_scope for a token without a read scope', async () => {
    const { GET } = await import('../../examples/next/app/me/route.js')
    const response = await GET(
      new NextRequest('http://localhost:3000/me', { headers: { 'PRIVATE-TOKEN': DEMO_SECRETS.rootReader } }),
      context,
    )
    expect(response.status).toBe(403)
    expect((await response.json()) as { error: string; scope: string }).toMatchObject({
      error: 'insufficient_scope',
      scope: 'read_api api',
    })
    expect(response.headers.get('www-authenticate')).toContain('error="insufficient_scope"')
  })

  it('app/api/v4/[...path]/route.ts: the GitLab API as a catch-all route', async () => {
    const { GET } = await import('../../examples/next/app/api/v4/[...path]/route.js')
    const response = await GET(
      new NextRequest('http://localhost:3000/api/v4/personal_access_tokens/self', {
        headers: { 'PRIVATE-TOKEN': DEMO_SECRETS.alice },
      }),
    )
    expect(response.status).toBe(200)
    expect(await response.json()).toMatchObject({ id: 2, name: 'laptop', user_id: 2 })
  })
})
