/**
 * The servers of target 21 (the load generator runs in the suite's process, so each has a core). For
 * each of Fastify 5, Express 5 and Hono 4 (on @hono/node-server), applications answering `GET /me`
 * with the caller's id and name as JSON:
 *
 * - `open`: no authentication, the same JSON built per request;
 * - `patkit`: behind the framework's `requireToken` (`patkit/fastify`, `patkit/express`,
 *   `patkit/hono`) over a memory store, reading `PRIVATE-TOKEN`;
 * - `floor`: the open route behind the least an authenticating middleware does, the HMAC-SHA-256 of the
 *   presented `PRIVATE-TOKEN` and one `Map.get` of its digest (target 1's floor), 401 when unknown;
 * - `betterAuth`: behind a middleware calling better-auth's `verifyApiKey` (api-key plugin, memory
 *   adapter, rate limiting off), reading `x-api-key`.
 *
 * `node guard-server.mjs patkit` serves the first three, `node guard-server.mjs better-auth` the last:
 * better-auth keeps request state in an AsyncLocalStorage, which on Node 20 puts a hook on every
 * promise of its process, so in one process with it patkit's guard and the open routes would pay for
 * better-auth. Sends `{ ports, keys }` to its parent once every server listens.
 */
import { serve } from '@hono/node-server'
import express from 'express'
import Fastify from 'fastify'
import { Hono } from 'hono'
import { requireToken as expressToken } from 'patkit/express'
import { fastifyPatkit, requireToken as fastifyToken } from 'patkit/fastify'
import { requireToken as honoToken } from 'patkit/hono'
import { betterAuthWith } from '../lib/better-auth.mjs'
import { ALICE, benchDigester } from '../lib/dataset.mjs'
import { memoryPopulation, settle } from '../lib/memory-population.mjs'

/** Keys in each store. better-auth's memory adapter scans its key array, so more only widen the gap. */
const GUARD_KEYS = 1000

const scopes = /** @type {import('patkit').Scope[]} */ (['read_api', 'api'])
const UNAUTHORIZED = { message: '401 Unauthorized' }

/** @param {import('node:http').Server} server @returns {Promise<number>} */
const portOf = (server) =>
  new Promise((resolve) => {
    const ready = () => {
      const address = server.address()
      resolve(typeof address === 'object' && address !== null ? address.port : 0)
    }
    if (server.listening) ready()
    else server.once('listening', ready)
  })

/** @param {import('fastify').FastifyInstance} app */
async function fastifyPort(app) {
  await app.listen({ port: 0, host: '127.0.0.1' })
  return portOf(app.server)
}

/** @param {import('express').Express} app */
const expressPort = (app) => portOf(app.listen(0, '127.0.0.1'))

/** @param {{ fetch: (request: Request) => Response | Promise<Response> }} app */
const honoPort = (app) =>
  portOf(
    /** @type {import('node:http').Server} */ (serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' })),
  )

/** The open routes, the floor and the routes behind patkit's guards, over one memory store. */
async function patkitServers() {
  /** @type {Map<string, number>} */
  const floorIndex = new Map()
  const { authority } = await memoryPopulation(GUARD_KEYS, (token) => floorIndex.set(token.digest, token.id))
  const digest = benchDigester()
  const open = () => ({ id: ALICE.id, username: ALICE.username })
  /** @param {unknown} secret */
  const known = (secret) => typeof secret === 'string' && floorIndex.get(digest(secret)) !== undefined

  const fastifyOpen = Fastify()
  fastifyOpen.get('/me', async () => open())
  const fastifyGuarded = Fastify()
  await fastifyGuarded.register(fastifyPatkit)
  fastifyGuarded.get('/me', { preHandler: fastifyToken({ authority, scopes }) }, async (request) => ({
    id: request.principal.user.id,
    username: request.principal.user.username,
  }))

  const fastifyFloor = Fastify()
  fastifyFloor.get(
    '/me',
    {
      preHandler: (request, reply, done) => {
        if (known(request.headers['private-token'])) done()
        else reply.code(401).send(UNAUTHORIZED)
      },
    },
    async () => open(),
  )

  const expressOpen = express()
  expressOpen.get('/me', (_req, res) => {
    res.json(open())
  })
  const expressGuarded = express()
  expressGuarded.get('/me', expressToken({ authority, scopes }), (_req, res) => {
    res.json({ id: res.locals.principal.user.id, username: res.locals.principal.user.username })
  })

  const expressFloor = express()
  expressFloor.get(
    '/me',
    (req, res, next) => {
      if (known(req.headers['private-token'])) next()
      else res.status(401).json(UNAUTHORIZED)
    },
    (_req, res) => {
      res.json(open())
    },
  )

  const honoOpen = new Hono()
  honoOpen.get('/me', (c) => c.json(open()))
  const honoGuarded = new Hono()
  honoGuarded.get('/me', honoToken({ authority, scopes }), (c) =>
    c.json({ id: c.var.principal.user.id, username: c.var.principal.user.username }),
  )

  const honoFloor = new Hono()
  honoFloor.get(
    '/me',
    async (c, next) => {
      if (!known(c.req.header('private-token'))) return c.json(UNAUTHORIZED, 401)
      await next()
      return undefined
    },
    (c) => c.json(open()),
  )

  return {
    fastify: {
      open: await fastifyPort(fastifyOpen),
      patkit: await fastifyPort(fastifyGuarded),
      floor: await fastifyPort(fastifyFloor),
    },
    express: {
      open: await expressPort(expressOpen),
      patkit: await expressPort(expressGuarded),
      floor: await expressPort(expressFloor),
    },
    hono: {
      open: await honoPort(honoOpen),
      patkit: await honoPort(honoGuarded),
      floor: await honoPort(honoFloor),
    },
  }
}

/**
 * The routes behind better-auth's api-key check. Its answer has the key's owner id; the name is the
 * fixed one of the open route (better-auth would need another lookup for it, which it is spared).
 */
async function betterAuthServers() {
  const auth = await betterAuthWith(GUARD_KEYS)
  /** @param {string | undefined} key @returns {Promise<{ id: unknown, username: string } | null>} */
  const caller = async (key) => {
    if (key === undefined) return null
    const result = await auth.api.verifyApiKey({ body: { key } })
    if (!result.valid || result.key === null) return null
    const row = /** @type {{ referenceId?: unknown, userId?: unknown }} */ (result.key)
    return { id: row.referenceId ?? row.userId, username: ALICE.username }
  }

  const fastifyApp = Fastify()
  fastifyApp.decorateRequest('caller', null)
  fastifyApp.get(
    '/me',
    {
      preHandler: async (request, reply) => {
        const header = request.headers['x-api-key']
        const found = await caller(typeof header === 'string' ? header : undefined)
        if (found === null) return reply.code(401).send(UNAUTHORIZED)
        /** @type {{ caller: unknown }} */
        /** @type {unknown} */
        request.caller = found
        return undefined
      },
    },
    async (request) => /** @type {{ caller: unknown }} */ (/** @type {unknown} */ (request)).caller,
  )

  const expressApp = express()
  expressApp.get(
    '/me',
    async (req, res, next) => {
      const found = await caller(req.get('x-api-key'))
      if (found === null) {
        res.status(401).json(UNAUTHORIZED)
        return
      }
      res.locals['caller'] = found
      next()
    },
    (_req, res) => {
      res.json(res.locals['caller'])
    },
  )

  /** @type {Hono<{ Variables: { caller: { id: unknown, username: string } } }>} */
  const honoApp = new Hono()
  honoApp.get(
    '/me',
    async (c, next) => {
      const found = await caller(c.req.header('x-api-key'))
      if (found === null) return c.json(UNAUTHORIZED, 401)
      c.set('caller', found)
      await next()
      return undefined
    },
    (c) => c.json(c.var.caller),
  )

  return {
    fastify: { betterAuth: await fastifyPort(fastifyApp) },
    express: { betterAuth: await expressPort(expressApp) },
    hono: { betterAuth: await honoPort(honoApp) },
  }
}

const ports = process.argv[2] === 'better-auth' ? await betterAuthServers() : await patkitServers()
settle()
process.send?.({ ports, keys: GUARD_KEYS })
process.on('disconnect', () => process.exit(0))
