import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import Fastify, { type FastifyInstance } from 'fastify'
import { Hono } from 'hono'
import { afterEach, describe, expect, it } from 'vitest'
import { requireToken as expressToken } from '../../src/express/index.js'
import { fastifyPatkit, requireToken as fastifyToken } from '../../src/fastify/index.js'
import { requireToken as honoToken } from '../../src/hono/index.js'
import { createAuthority } from '../../src/index.js'
import { memoryStore } from '../../src/memory/index.js'
import { withToken as nextToken } from '../../src/next/index.js'
import { ALICE, world } from '../support/authority-fixtures.js'

// The guards' `permission` and `boundary` options: a route of the application's own that needs a
// permission of its vocabulary on the project its path names. Each framework runs in-process over a
// real socket (Next.js's handler called as Next.js calls it) against a memory store.

const servers: Server[] = []
const fastifies: FastifyInstance[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))))
  await Promise.all(fastifies.splice(0).map((app) => app.close()))
})

async function serve(listener: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(listener)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

function headersOf(req: IncomingMessage): [string, string][] {
  return Object.entries(req.headers).flatMap(([k, v]): [string, string][] =>
    typeof v === 'string' ? [[k, v]] : [],
  )
}

async function billingWorld() {
  const w = await world({ permissions: ['read_invoice', 'write_invoice'] })
  const issue = async (
    input:
      | { scopes: string[] }
      | {
          permissions: { permissions: ('read_invoice' | 'write_invoice')[]; boundary: { project: number } }[]
        },
  ) => (await w.authority.issueToken({ userId: ALICE.id, name: 't', ...input }))._unsafeUnwrap().secret
  return {
    authority: w.authority,
    reader: await issue({ permissions: [{ permissions: ['read_invoice'], boundary: { project: 42 } }] }),
    writer: await issue({ permissions: [{ permissions: ['write_invoice'], boundary: { project: 42 } }] }),
    legacy: await issue({ scopes: ['api'] }),
  }
}

type Billing = Awaited<ReturnType<typeof billingWorld>>['authority']

const FRAMEWORKS: readonly (readonly [string, (authority: Billing) => Promise<string>])[] = [
  [
    'patkit/express requireToken',
    async (authority) => {
      const app = express()
      app.get(
        '/projects/:id/invoices',
        expressToken({
          authority,
          permission: 'read_invoice',
          boundary: (req) => ({ project: Number(req.params['id']) }),
        }),
        (_req, res) => {
          res.send(res.locals.principal.user.username)
        },
      )
      return serve(app)
    },
  ],
  [
    'patkit/fastify requireToken',
    async (authority) => {
      const app = Fastify()
      fastifies.push(app)
      await app.register(fastifyPatkit)
      app.get(
        '/projects/:id/invoices',
        {
          preHandler: fastifyToken({
            authority,
            permission: 'read_invoice',
            boundary: (request) => ({ project: Number((request.params as { id: string }).id) }),
          }),
        },
        async (request) => request.principal.user.username,
      )
      await app.listen({ port: 0, host: '127.0.0.1' })
      return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    },
  ],
  [
    'patkit/hono requireToken',
    async (authority) => {
      const app = new Hono()
      app.get(
        '/projects/:id/invoices',
        honoToken({
          authority,
          permission: 'read_invoice',
          boundary: (c) => ({ project: Number(c.req.param('id')) }),
        }),
        (c) => c.text(c.var.principal.user.username),
      )
      return serve(async (req, res) => {
        const response = await app.request(req.url ?? '/', { headers: headersOf(req) })
        res.writeHead(response.status, Object.fromEntries(response.headers))
        res.end(await response.text())
      })
    },
  ],
  [
    'patkit/next withToken',
    async (authority) => {
      const GET = nextToken(
        async (_request: Request, _context: { params: Promise<{ id: string }> }, principal) =>
          new Response(principal.user.username),
        {
          authority,
          permission: 'read_invoice',
          boundary: async (_request, context) => ({ project: Number((await context.params).id) }),
        },
      )
      return serve(async (req, res) => {
        const id = decodeURIComponent((req.url ?? '').split('/')[2] ?? '')
        const request = new Request(`http://app.test${req.url ?? '/'}`, { headers: headersOf(req) })
        const response = await GET(request, { params: Promise.resolve({ id }) })
        res.writeHead(response.status, Object.fromEntries(response.headers))
        res.end(await response.text())
      })
    },
  ],
]

async function get(url: string, token?: string) {
  const r = await fetch(url, token === undefined ? {} : { headers: { 'PRIVATE-TOKEN': token } })
  return { status: r.status, challenge: r.headers.get('www-authenticate'), body: await r.text() }
}

const denied = (description: string) =>
  JSON.stringify({ error: 'insufficient_granular_scope', error_description: description })
const NEEDS_READ =
  'Access denied: This operation requires a fine-grained personal access token with the following project permissions: [read_invoice].'

describe.each(FRAMEWORKS)('%s: permission and boundary', (_name, mount) => {
  it('200 with the permission on the project', async () => {
    const w = await billingWorld()
    const url = await mount(w.authority)
    expect(await get(`${url}/projects/42/invoices`, w.reader)).toEqual({
      status: 200,
      challenge: null,
      body: 'alice',
    })
  })

  it('403 naming the missing permission without it', async () => {
    const w = await billingWorld()
    const url = await mount(w.authority)
    expect(await get(`${url}/projects/42/invoices`, w.writer)).toEqual({
      status: 403,
      challenge: 'Bearer realm="Protected by OAuth 2.0", error="insufficient_scope"',
      body: denied(NEEDS_READ),
    })
  })

  it('403 outside the boundary', async () => {
    const w = await billingWorld()
    const url = await mount(w.authority)
    const outside = await get(`${url}/projects/43/invoices`, w.reader)
    expect(outside.status).toBe(403)
    expect(outside.body).toBe(denied(NEEDS_READ))
  })

  it('403 for a legacy token: the route needs a fine-grained one', async () => {
    const w = await billingWorld()
    const url = await mount(w.authority)
    const legacy = await get(`${url}/projects/42/invoices`, w.legacy)
    expect(legacy.status).toBe(403)
    expect(legacy.body).toBe(denied(NEEDS_READ))
  })

  it('401 without a token', async () => {
    const w = await billingWorld()
    const url = await mount(w.authority)
    const none = await get(`${url}/projects/42/invoices`)
    expect(none.status).toBe(401)
    expect(none.challenge).toBe('Bearer realm="Protected by OAuth 2.0"')
  })
})

describe('permission guards where they are built and beside scopes', () => {
  it('an unknown permission throws a RangeError naming the vocabulary; it does not compile either', async () => {
    // Typed from the vocabulary given to createAuthority (the test world's helper widens it to string).
    const authority = createAuthority({
      store: memoryStore(),
      pepper: 'p',
      permissions: ['read_invoice', 'write_invoice'],
    })
    expect(() =>
      // @ts-expect-error a typo outside the authority's permissions
      expressToken({ authority, permission: 'read_invocie', boundary: 'user' }),
    ).toThrow(
      'patkit guard: unknown permission "read_invocie" in permission; the authority\'s permissions are read_invoice, write_invoice',
    )
    expect(() => honoToken({ authority, permission: [], boundary: 'user' })).toThrow(RangeError)
    // @ts-expect-error a boundary is required with a permission
    expect(() => honoToken({ authority, permission: 'read_invoice' })).toThrow(TypeError)
  })

  it('with scopes as well, a legacy token passes by its scopes and a fine-grained one by its permission', async () => {
    const w = await billingWorld()
    const app = new Hono()
    app.get(
      '/invoices',
      honoToken({
        authority: w.authority,
        permission: 'read_invoice',
        boundary: { project: 42 },
        scopes: ['api'],
      }),
      (c) => c.text('ok'),
    )
    const status = async (token: string) =>
      (await app.request('/invoices', { headers: { 'PRIVATE-TOKEN': token } })).status
    expect(await status(w.legacy)).toBe(200)
    expect(await status(w.reader)).toBe(200)
    expect(await status(w.writer)).toBe(403)
  })

  it("a fine-grained token on a scopes route gets GitLab's doesn't-support 403; scopes: 'any' lets it in", async () => {
    const w = await billingWorld()
    const app = new Hono()
    app.get('/scoped', honoToken({ authority: w.authority, scopes: ['api'] }), (c) => c.text('ok'))
    app.get('/any', honoToken({ authority: w.authority, scopes: 'any' }), (c) => c.text('ok'))
    const scoped = await app.request('/scoped', { headers: { 'PRIVATE-TOKEN': w.reader } })
    expect(scoped.status).toBe(403)
    expect(await scoped.text()).toBe(
      denied("Access denied: This operation doesn't support fine-grained personal access tokens."),
    )
    expect((await app.request('/any', { headers: { 'PRIVATE-TOKEN': w.reader } })).status).toBe(200)
  })
})
