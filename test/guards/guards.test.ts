import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import Fastify from 'fastify'
import { Hono } from 'hono'
import { afterEach, describe, expect, it } from 'vitest'
import {
  MissingPrincipalError as ExpressMissingPrincipalError,
  requireToken as expressToken,
  principalOf,
} from '../../src/express/index.js'
import {
  fastifyPatkit,
  requireToken as fastifyToken,
  MissingPrincipalError,
} from '../../src/fastify/index.js'
import { requireToken as honoToken } from '../../src/hono/index.js'
import { withToken as nextToken } from '../../src/next/index.js'
import { type NodeListener, withToken as nodeToken } from '../../src/node/index.js'
import { ALICE, world } from '../support/authority-fixtures.js'

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))))
})

async function serve(listener: NodeListener | express.Express): Promise<string> {
  const server = createServer(listener)
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

async function aliceWorld() {
  const w = await world()
  const reader = await w.issue(ALICE.id, { scopes: ['read_api'] })
  const other = await w.issue(ALICE.id, { scopes: ['read_user'] })
  w.events.length = 0
  return { ...w, reader: reader.secret, other: other.secret }
}

const BARE_CHALLENGE = 'Bearer realm="Protected by OAuth 2.0"'

/**
 * A headers-only guard's answer to a token in the query (the default): 401, GitLab's body, a bare
 * challenge, and no use of the token recorded (it was not looked up).
 */
function expectQueryRefused(
  status: number,
  challenge: string | null | undefined,
  body: string,
  events: readonly unknown[],
): void {
  expect(status).toBe(401)
  expect(body).toBe('{"message":"401 Unauthorized"}')
  expect(challenge).toBe(BARE_CHALLENGE)
  expect(events).toEqual([])
}

describe('patkit/node withToken', () => {
  it('refuses a private_token query parameter by default, even beside a header, and never reaches the listener', async () => {
    const { authority, reader, events } = await aliceWorld()
    let calls = 0
    const url = await serve(
      nodeToken(
        (_req, res) => {
          calls += 1
          res.end()
        },
        { authority, scopes: ['read_api'] },
      ),
    )
    const r = await fetch(`${url}/me?private_token=${reader}`, { headers: { 'PRIVATE-TOKEN': reader } })
    expectQueryRefused(r.status, r.headers.get('www-authenticate'), await r.text(), events)
    expect(calls).toBe(0)
  })

  it("reads a private_token query parameter with credentials: 'headers_or_query', and never reaches the listener for a refused request", async () => {
    const { authority, reader, other } = await aliceWorld()
    let calls = 0
    const url = await serve(
      nodeToken(
        (_req, res, principal) => {
          calls += 1
          res.end(principal.user.username)
        },
        { authority, scopes: ['read_api'], credentials: 'headers_or_query' },
      ),
    )
    const ok = await fetch(`${url}/me?private_token=${reader}`)
    expect(await ok.text()).toBe('alice')
    const refused = await fetch(`${url}/me`, { headers: { 'PRIVATE-TOKEN': other } })
    expect(refused.status).toBe(403)
    expect(refused.headers.get('www-authenticate')).toContain('error="insufficient_scope", ')
    expect(calls).toBe(1)
  })

  it('a store that throws is answered 500, as createNodeListener answers it', async () => {
    const { authority } = await world()
    const throwing = {
      ...authority,
      authenticate: () => {
        throw new Error('broken store')
      },
    }
    const url = await serve(
      nodeToken(
        (_req, res) => {
          res.end('never')
        },
        { authority: throwing, scopes: 'any' },
      ),
    )
    const r = await fetch(`${url}/me`, { headers: { 'PRIVATE-TOKEN': 'glpat-x' } })
    expect(r.status).toBe(500)
    expect(await r.text()).toBe('{"message":"500 Internal Server Error"}')
  })

  it('a realm no header can carry throws where the guard is built', async () => {
    const { authority } = await world()
    expect(() => nodeToken(() => {}, { authority, scopes: 'any', realm: 'a\nb' })).toThrow(TypeError)
  })
})

describe('patkit/express requireToken', () => {
  it('refuses a private_token query parameter by default under a mounted router, before the route', async () => {
    const { authority, reader, events } = await aliceWorld()
    const app = express()
    const router = express.Router()
    let calls = 0
    router.get('/notes', expressToken({ authority, scopes: ['read_api'] }), (_req, res) => {
      calls += 1
      res.end()
    })
    app.use('/v1', router)
    const r = await fetch(`${await serve(app)}/v1/notes?private_token=${reader}`)
    expectQueryRefused(r.status, r.headers.get('www-authenticate'), await r.text(), events)
    expect(calls).toBe(0)
  })

  it("reads the original URL’s query under a mounted router with credentials: 'headers_or_query', and a JSON body parser still works after it", async () => {
    const { authority, reader } = await aliceWorld()
    const app = express()
    const router = express.Router()
    router.post('/notes', requireToken(), express.json(), (req, res) => {
      res.json({ by: res.locals.principal.user.username, note: req.body as unknown })
    })
    function requireToken() {
      return expressToken({ authority, scopes: ['read_api'], credentials: 'headers_or_query' })
    }
    app.use('/v1', router)
    const url = await serve(app)
    const r = await fetch(`${url}/v1/notes?private_token=${reader}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"text":"hi"}',
    })
    expect(r.status).toBe(200)
    expect(await r.json()).toEqual({ by: 'alice', note: { text: 'hi' } })
  })

  it('principalOf reads the caller in a handler defined apart, and throws MissingPrincipalError (500) where no guard ran', async () => {
    const { authority, reader } = await aliceWorld()
    const app = express()
    const me = (_req: express.Request, res: express.Response) => {
      res.json({ username: principalOf(res).user.username })
    }
    app.get('/me', expressToken({ authority, scopes: ['read_api'] }), me)
    app.get('/unguarded', me)
    const errors: unknown[] = []
    app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      errors.push(error)
      res.status(500).end()
    })
    const url = await serve(app)
    const ok = await fetch(`${url}/me`, { headers: { authorization: `Bearer ${reader}` } })
    expect(await ok.json()).toEqual({ username: 'alice' })
    const unguarded = await fetch(`${url}/unguarded`)
    expect(unguarded.status).toBe(500)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toBeInstanceOf(ExpressMissingPrincipalError)
    expect((errors[0] as MissingPrincipalError).statusCode).toBe(500)
    expect((errors[0] as Error).message).toBe(
      'patkit/express: principalOf(res) found no caller: put requireToken(...) before this handler',
    )
  })

  it('principalOf after router.use(requireToken(...)) reads the caller, never another middleware’s res.locals.principal', async () => {
    const { authority, reader } = await aliceWorld()
    const app = express()
    const router = express.Router()
    // Another library's middleware with a `principal` of its own.
    app.use((_req, res, next) => {
      res.locals['principal'] = { user: { username: 'impostor' } }
      next()
    })
    router.use(requireTokenOnce())
    router.get('/me', (_req, res) => {
      res.json({ username: principalOf(res).user.username })
    })
    function requireTokenOnce() {
      return expressToken({ authority, scopes: ['read_api'] })
    }
    app.use('/v1', router)
    app.get('/elsewhere', (_req, res) => {
      res.json({ username: principalOf(res).user.username })
    })
    const url = await serve(app)
    const ok = await fetch(`${url}/v1/me`, { headers: { 'PRIVATE-TOKEN': reader } })
    expect(await ok.json()).toEqual({ username: 'alice' })
    // No guard ran: the impostor's `res.locals.principal` is not taken for a caller.
    const elsewhere = await fetch(`${url}/elsewhere`)
    expect(elsewhere.status).toBe(500)
    expect(await elsewhere.text()).not.toContain('impostor')
  })

  it('a refusal is GitLab’s JSON body with its content type, not Express’s HTML', async () => {
    const { authority } = await world()
    const app = express()
    app.get('/me', expressToken({ authority, scopes: ['api'] }), (_req, res) => {
      res.end()
    })
    const r = await fetch(`${await serve(app)}/me`)
    expect(r.status).toBe(401)
    expect(r.headers.get('content-type')).toBe('application/json')
    expect(await r.text()).toBe('{"message":"401 Unauthorized"}')
    expect(r.headers.get('www-authenticate')).toBe('Bearer realm="Protected by OAuth 2.0"')
  })
})

// The first Fastify application of a process loads Fastify and compiles its hooks: a third of a
// second alone, several on a busy machine.
describe('patkit/fastify fastifyPatkit and requireToken', { timeout: 30_000 }, () => {
  it('request.principal on a guarded route; a refusal goes through the reply, so onSend hooks run', async () => {
    const { authority, reader } = await aliceWorld()
    const app = Fastify()
    await app.register(fastifyPatkit)
    app.addHook('onSend', async (_request, reply) => {
      reply.header('x-seen-by-onsend', 'yes')
    })
    app.get('/me', { preHandler: fastifyToken({ authority, scopes: ['read_api'] }) }, async (request) => ({
      username: request.principal.user.username,
    }))
    const ok = await app.inject({ url: '/me', headers: { 'private-token': reader } })
    expect(ok.json()).toEqual({ username: 'alice' })
    const refused = await app.inject({ url: '/me' })
    expect(refused.statusCode).toBe(401)
    expect(refused.body).toBe('{"message":"401 Unauthorized"}')
    expect(refused.headers['content-type']).toBe('application/json')
    expect(refused.headers['www-authenticate']).toBe('Bearer realm="Protected by OAuth 2.0"')
    expect(refused.headers['x-seen-by-onsend']).toBe('yes')
    await app.close()
  })

  it('refuses a private_token query parameter by default; accepts it with headers_or_query', async () => {
    const { authority, reader, events } = await aliceWorld()
    const app = Fastify()
    await app.register(fastifyPatkit)
    app.get('/strict', { preHandler: fastifyToken({ authority, scopes: 'any' }) }, async () => ({
      reached: true,
    }))
    app.get(
      '/lenient',
      { preHandler: fastifyToken({ authority, scopes: 'any', credentials: 'headers_or_query' }) },
      async (request) => ({ username: request.principal.user.username }),
    )
    const r = await app.inject({ url: `/strict?private_token=${reader}` })
    expectQueryRefused(r.statusCode, r.headers['www-authenticate'] as string | undefined, r.body, events)
    const ok = await app.inject({ url: `/lenient?private_token=${reader}` })
    expect(ok.json()).toEqual({ username: 'alice' })
    await app.close()
  })

  it('reading request.principal on a route without the hook throws MissingPrincipalError; the client gets a plain 500', async () => {
    const { authority } = await world()
    const app = Fastify()
    await app.register(fastifyPatkit)
    const seen: unknown[] = []
    app.addHook('onError', async (_request, _reply, error) => {
      seen.push(error)
    })
    app.get('/unguarded/:id', async (request) => ({ name: request.principal.user.username }))
    app.get('/sync', (request, reply) => {
      reply.send({ name: request.principal.user.username })
    })
    app.get('/guarded', { preHandler: fastifyToken({ authority, scopes: 'any' }) }, async () => ({}))
    for (const url of ['/unguarded/7?private_token=glpat-secret', '/sync']) {
      const r = await app.inject({ url })
      expect(r.statusCode).toBe(500)
      expect(r.headers['content-type']).toBe('application/json')
      expect(r.body).toBe('{"message":"500 Internal Server Error"}')
    }
    // The application's hooks and error handler get the error naming the route's pattern (not its
    // URL, whose query may carry a secret).
    expect(seen).toHaveLength(2)
    expect(seen[0]).toBeInstanceOf(MissingPrincipalError)
    expect((seen[0] as Error).message).toBe(
      'patkit/fastify: request.principal read on GET /unguarded/:id, a route without requireToken(...) as its preHandler',
    )
    await app.close()
  })

  it('a handler that catches the missing principal keeps its own answer', async () => {
    const app = Fastify()
    await app.register(fastifyPatkit)
    app.get('/maybe', async (request) => {
      try {
        return { name: request.principal.user.username }
      } catch (e) {
        return { anonymous: e instanceof MissingPrincipalError }
      }
    })
    const r = await app.inject({ url: '/maybe' })
    expect([r.statusCode, r.body]).toEqual([200, '{"anonymous":true}'])
    await app.close()
  })

  it('requireToken without fastifyPatkit registered is a loud 500 naming the plugin', async () => {
    const { authority, reader } = await aliceWorld()
    const app = Fastify()
    app.get('/me', { preHandler: fastifyToken({ authority, scopes: 'any' }) }, async () => ({}))
    const r = await app.inject({ url: '/me', headers: { 'private-token': reader } })
    expect(r.statusCode).toBe(500)
    expect(r.json()).toMatchObject({ message: expect.stringContaining('fastifyPatkit') })
    await app.close()
  })
})

describe('patkit/hono requireToken', () => {
  it('c.var.principal on the guarded route, the refusal Response as is otherwise', async () => {
    const { authority, reader, other } = await aliceWorld()
    const app = new Hono()
    app.get('/me', honoToken({ authority, scopes: ['read_api'], realm: 'notes' }), (c) =>
      c.text(c.var.principal.user.username),
    )
    expect(await (await app.request('/me', { headers: { 'PRIVATE-TOKEN': reader } })).text()).toBe('alice')
    const refused = await app.request('/me', { headers: { 'PRIVATE-TOKEN': other } })
    expect(refused.status).toBe(403)
    expect(refused.headers.get('www-authenticate')).toMatch(
      /^Bearer realm="notes", error="insufficient_scope"/,
    )
  })

  it('refuses a private_token query parameter by default; accepts it with headers_or_query', async () => {
    const { authority, reader, events } = await aliceWorld()
    const app = new Hono()
    app.get('/strict', honoToken({ authority, scopes: 'any' }), (c) => c.text('reached'))
    app.get('/lenient', honoToken({ authority, scopes: 'any', credentials: 'headers_or_query' }), (c) =>
      c.text(c.var.principal.user.username),
    )
    const r = await app.request(`/strict?private_token=${reader}`)
    expectQueryRefused(r.status, r.headers.get('www-authenticate'), await r.text(), events)
    expect(await (await app.request(`/lenient?private_token=${reader}`)).text()).toBe('alice')
  })
})

describe('patkit/next withToken', () => {
  it('refuses a private_token query parameter by default; accepts it with headers_or_query', async () => {
    const { authority, reader, events } = await aliceWorld()
    const handler = async (_request: Request, _context: unknown, principal: { user: { username: string } }) =>
      new Response(principal.user.username)
    const strict = nextToken(handler, { authority, scopes: 'any' })
    const lenient = nextToken(handler, { authority, scopes: 'any', credentials: 'headers_or_query' })
    const r = await strict(new Request(`http://app.test/notes?private_token=${reader}`), {})
    expectQueryRefused(r.status, r.headers.get('www-authenticate'), await r.text(), events)
    const ok = await lenient(new Request(`http://app.test/notes?private_token=${reader}`), {})
    expect(await ok.text()).toBe('alice')
  })

  it('passes the request and the route context through, with the caller third', async () => {
    const { authority, reader } = await aliceWorld()
    const GET = nextToken(
      async (request: Request, context: { params: Promise<{ id: string }> }, principal) =>
        Response.json({
          id: (await context.params).id,
          by: principal.user.username,
          path: new URL(request.url).pathname,
        }),
      { authority, scopes: ['read_api'] },
    )
    const response = await GET(
      new Request('http://app.test/notes/7', { headers: { 'PRIVATE-TOKEN': reader } }),
      {
        params: Promise.resolve({ id: '7' }),
      },
    )
    expect(await response.json()).toEqual({ id: '7', by: 'alice', path: '/notes/7' })
  })
})
