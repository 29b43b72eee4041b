import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import express from 'express'
import Fastify, { type FastifyInstance } from 'fastify'
import { Hono } from 'hono'
import { errAsync } from 'neverthrow'
import { afterEach, describe, expect, it } from 'vitest'
import { storeFailure } from '../../src/domain/error-constructors.js'
import type { AccessLevel } from '../../src/domain/resource.js'
import { requireToken as expressToken } from '../../src/express/index.js'
import { fastifyPatkit, requireToken as fastifyToken } from '../../src/fastify/index.js'
import { requireToken as honoToken } from '../../src/hono/index.js'
import { authenticateRequest, type GuardOptions, type ResourceRequirement } from '../../src/http/index.js'
import { withToken as nextToken } from '../../src/next/index.js'
import { withToken as nodeToken } from '../../src/node/index.js'
import type { ResourceStore } from '../../src/store/resource-store.js'
import { ALICE, world } from '../support/authority-fixtures.js'

// The guards' `resource` option: a route of the application's own that belongs to one project or
// group lets in the tokens of that resource's bots only (GitLab's project and group access tokens),
// with a minimum role. Every framework guard is run over a real socket (Next.js's handler is called
// as Next.js calls it) against a memory store holding the project, a group and their bots.

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

/** An IncomingMessage's single-valued headers, for a `Request`. */
function headersOf(req: IncomingMessage): [string, string][] {
  return Object.entries(req.headers).flatMap(([k, v]): [string, string][] =>
    typeof v === 'string' ? [[k, v]] : [],
  )
}

const PROJECT = 7
const GROUP = 3

/**
 * Project 7 (`acme/api`) in group 3 (`acme`), project 8 beside it; bots: `dev_bot` (project 7,
 * Developer), `guest_bot` (project 7, Guest), `group_bot` (group 3, Maintainer), `gone_bot` (of
 * project 7 but no longer a member), `reader_bot` (project 7, Developer, `read_api` only); Alice, a
 * human Owner of project 7.
 */
async function resourceWorld() {
  const w = await world()
  const resources = w.store.resources as ResourceStore
  const bot = async (id: number, username: string, type: 'project' | 'group', of: number) =>
    (
      await w.authority.users.put({
        id,
        username,
        admin: false,
        blocked: false,
        bot: true,
        botNamespace: { type, id: of },
      })
    )._unsafeUnwrap()
  await bot(20, 'dev_bot', 'project', PROJECT)
  await bot(21, 'guest_bot', 'project', PROJECT)
  await bot(22, 'group_bot', 'group', GROUP)
  await bot(23, 'gone_bot', 'project', PROJECT)
  await bot(24, 'reader_bot', 'project', PROJECT)
  ;(
    await resources.putGroup({
      id: GROUP,
      path: 'acme',
      fullPath: 'acme',
      name: 'Acme',
      parentId: null,
      visibility: 'private',
      members: [{ userId: 22, accessLevel: 40 }],
    })
  )._unsafeUnwrap()
  const project = (id: number, path: string, members: { userId: number; accessLevel: AccessLevel }[]) =>
    resources.putProject({
      id,
      path,
      fullPath: `acme/${path}`,
      name: path,
      groupId: GROUP,
      visibility: 'private',
      members,
    })
  ;(
    await project(PROJECT, 'api', [
      { userId: ALICE.id, accessLevel: 50 },
      { userId: 20, accessLevel: 30 },
      { userId: 21, accessLevel: 10 },
      { userId: 24, accessLevel: 30 },
    ])
  )._unsafeUnwrap()
  ;(await project(8, 'web', []))._unsafeUnwrap()
  const secret = async (userId: number, scopes: string[] = ['api']) =>
    (await w.issue(userId, { scopes })).secret
  return {
    ...w,
    resources,
    dev: await secret(20),
    guest: await secret(21),
    group: await secret(22),
    gone: await secret(23),
    reader: await secret(24, ['read_api']),
    alice: await secret(ALICE.id),
  }
}

type World = Awaited<ReturnType<typeof resourceWorld>>

/** The requirement of `GET /projects/:id/notes`: the project the path names, Developer or above. */
const developerOf = (id: string): ResourceRequirement => ({ type: 'project', id, minAccessLevel: 30 })

/** Each guard mounted on `GET /projects/:id/notes`, answering the caller's username; its base URL. */
const FRAMEWORKS: readonly (readonly [string, (w: World) => Promise<string>])[] = [
  [
    'patkit/http authenticateRequest',
    async ({ authority, resources }) =>
      serve(async (req, res) => {
        const request = new Request(`http://app.test${req.url ?? '/'}`, {
          headers: headersOf(req),
        })
        const caller = await authenticateRequest(request, {
          authority,
          scopes: ['api'],
          resources,
          resource: (r) => developerOf(decodeURIComponent(new URL(r.url).pathname.split('/')[2] ?? '')),
        })
        const response = caller.isErr() ? caller.error : new Response(caller.value.user.username)
        res.writeHead(response.status, Object.fromEntries(response.headers))
        res.end(await response.text())
      }),
  ],
  [
    'patkit/node withToken',
    async ({ authority, resources }) =>
      serve(
        nodeToken((_req, res, principal) => res.end(principal.user.username), {
          authority,
          scopes: ['api'],
          resources,
          resource: (req: IncomingMessage) =>
            developerOf(decodeURIComponent((req.url ?? '').split('/')[2] ?? '')),
        }),
      ),
  ],
  [
    'patkit/express requireToken',
    async ({ authority, resources }) => {
      const app = express()
      app.get(
        '/projects/:id/notes',
        expressToken({
          authority,
          scopes: ['api'],
          resources,
          resource: (req) => developerOf(String(req.params['id'])),
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
    async ({ authority, resources }) => {
      const app = Fastify()
      fastifies.push(app)
      await app.register(fastifyPatkit)
      app.get(
        '/projects/:id/notes',
        {
          preHandler: fastifyToken({
            authority,
            scopes: ['api'],
            resources,
            resource: (request) => developerOf((request.params as { id: string }).id),
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
    async ({ authority, resources }) => {
      const app = new Hono()
      app.get(
        '/projects/:id/notes',
        honoToken({
          authority,
          scopes: ['api'],
          resources,
          resource: (c) => developerOf(c.req.param('id') ?? ''),
        }),
        (c) => c.text(c.var.principal.user.username),
      )
      return serve(async (req, res) => {
        const response = await app.request(req.url ?? '/', {
          headers: headersOf(req),
        })
        res.writeHead(response.status, Object.fromEntries(response.headers))
        res.end(await response.text())
      })
    },
  ],
  [
    'patkit/next withToken',
    async ({ authority, resources }) => {
      // A route file `app/projects/[id]/notes/route.ts`: Next.js passes the params as a promise.
      const GET = nextToken(
        async (_request: Request, _context: { params: Promise<{ id: string }> }, principal) =>
          new Response(principal.user.username),
        {
          authority,
          scopes: ['api'],
          resources,
          resource: async (_request, context) => developerOf((await context.params).id),
        },
      )
      return serve(async (req, res) => {
        const id = decodeURIComponent((req.url ?? '').split('/')[2] ?? '')
        const request = new Request(`http://app.test${req.url ?? '/'}`, {
          headers: headersOf(req),
        })
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

describe.each(FRAMEWORKS)('%s: resource (a route parameter)', (_name, mount) => {
  it('lets a bot of the project in at the role, by id and by full path', async () => {
    const w = await resourceWorld()
    const url = await mount(w)
    expect(await get(`${url}/projects/7/notes`, w.dev)).toEqual({
      status: 200,
      challenge: null,
      body: 'dev_bot',
    })
    expect((await get(`${url}/projects/acme%2FAPI/notes`, w.dev)).body).toBe('dev_bot')
  })

  it('refuses a bot of the project below the role: 403 Forbidden, no challenge', async () => {
    const w = await resourceWorld()
    const url = await mount(w)
    expect(await get(`${url}/projects/7/notes`, w.guest)).toEqual({
      status: 403,
      challenge: null,
      body: '{"message":"403 Forbidden"}',
    })
  })

  it('answers 404 Project Not Found to any other token: a human member, a group bot, a bot of another project, a bot no longer a member', async () => {
    const w = await resourceWorld()
    const url = await mount(w)
    const notFound = { status: 404, challenge: null, body: '{"message":"404 Project Not Found"}' }
    expect(await get(`${url}/projects/7/notes`, w.alice)).toEqual(notFound)
    expect(await get(`${url}/projects/7/notes`, w.group)).toEqual(notFound)
    expect(await get(`${url}/projects/8/notes`, w.dev)).toEqual(notFound)
    expect(await get(`${url}/projects/acme%2Fweb/notes`, w.dev)).toEqual(notFound)
    expect(await get(`${url}/projects/nowhere/notes`, w.dev)).toEqual(notFound)
    expect(await get(`${url}/projects/7/notes`, w.gone)).toEqual(notFound)
  })

  it('checks the token and its scopes first: 401 without a token, 403 insufficient_scope before the resource', async () => {
    const w = await resourceWorld()
    const url = await mount(w)
    const anonymous = await get(`${url}/projects/7/notes`)
    expect(anonymous.status).toBe(401)
    const reader = await get(`${url}/projects/7/notes`, w.reader)
    expect(reader.status).toBe(403)
    expect(reader.challenge).toContain('error="insufficient_scope"')
  })
})

describe('a static resource requirement', () => {
  function guarded(w: World, options: Partial<GuardOptions<[request: Request]>>) {
    return async (token: string) => {
      const request = new Request('http://app.test/notes', { headers: { 'PRIVATE-TOKEN': token } })
      const outcome = await authenticateRequest(request, {
        authority: w.authority,
        scopes: ['api'],
        ...options,
      })
      return outcome.isOk() ? outcome.value.user.username : outcome.error.status
    }
  }

  it('a group: its bots only; a project bot gets 404 Group Not Found', async () => {
    const w = await resourceWorld()
    const check = guarded(w, {
      resources: w.resources,
      resource: { type: 'group', id: GROUP, minAccessLevel: 40 },
    })
    expect(await check(w.group)).toBe('group_bot')
    expect(await check(w.dev)).toBe(404)
    const refused = await authenticateRequest(
      new Request('http://app.test/notes', { headers: { 'PRIVATE-TOKEN': w.dev } }),
      { authority: w.authority, scopes: ['api'], resource: { type: 'group', id: GROUP } },
    )
    expect(await refused._unsafeUnwrapErr().text()).toBe('{"message":"404 Group Not Found"}')
    const owners = guarded(w, {
      resources: w.resources,
      resource: { type: 'group', id: 'ACME', minAccessLevel: 50 },
    })
    expect(await owners(w.group)).toBe(403)
  })

  it('without minAccessLevel or a path, the bot’s namespace decides alone: no resource is read', async () => {
    const w = await resourceWorld()
    const reads: string[] = []
    const counting = new Proxy(w.resources, {
      get(target, name: keyof ResourceStore) {
        reads.push(String(name))
        return target[name]
      },
    })
    const check = guarded(w, { resources: counting, resource: { type: 'project', id: PROJECT } })
    expect(await check(w.guest)).toBe('guest_bot')
    expect(await check(w.alice)).toBe(404)
    const plain = guarded(w, { resources: counting })
    expect(await plain(w.alice)).toBe('alice')
    expect(reads).toEqual([])
  })

  it('a store that fails while reading the membership is answered 500', async () => {
    const w = await resourceWorld()
    const failing: ResourceStore = {
      ...w.resources,
      findProject: () => errAsync(storeFailure('findProject', new Error('connection lost'))),
    }
    const check = guarded(w, {
      resources: failing,
      resource: { type: 'project', id: PROJECT, minAccessLevel: 10 },
    })
    expect(await check(w.dev)).toBe(500)
  })

  const GUARDS: readonly (readonly [string, (options: GuardOptions) => unknown])[] = [
    ['patkit/http authenticateRequest', (o) => authenticateRequest(new Request('http://app.test/me'), o)],
    ['patkit/node withToken', (o) => nodeToken(() => {}, o)],
    ['patkit/express requireToken', (o) => expressToken(o)],
    ['patkit/fastify requireToken', (o) => fastifyToken(o)],
    ['patkit/hono requireToken', (o) => honoToken(o)],
    ['patkit/next withToken', (o) => nextToken(async () => new Response(), o)],
  ]

  it.each(GUARDS)('%s throws where it is built for a requirement it cannot check', async (_name, build) => {
    const { authority, store } = await world()
    const base = { authority, scopes: ['api'] } as const
    expect(() => build({ ...base, resource: { type: 'project', id: 7, minAccessLevel: 30 } })).toThrow(
      'patkit guard: resource.minAccessLevel reads the bot’s membership: pass resources (store.resources) as well',
    )
    expect(() => build({ ...base, resource: { type: 'project', id: 'acme/api' } })).toThrow(TypeError)
    expect(() =>
      build({
        ...base,
        resources: store.resources,
        resource: { type: 'project', id: 7, minAccessLevel: 35 as AccessLevel },
      }),
    ).toThrow(RangeError)
    expect(() => build({ ...base, resource: { type: 'repo' as 'project', id: 7 } })).toThrow(
      `patkit guard: resource.type must be 'project' or 'group', got "repo"`,
    )
    expect(() => build({ ...base, resource: { type: 'project', id: '7' } })).not.toThrow()
  })
})
