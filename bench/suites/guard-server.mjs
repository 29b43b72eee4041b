/**
 * The servers of target 21, in one process of their own (the load generator runs in the suite's
 * process, so each has a core). For each of Fastify 5, Express 5 and Hono 4 (on @hono/node-server),
 * three applications answer `GET /me` with the caller's id and name as JSON:
 *
 * - `open`: no authentication, the same JSON built per request;
 * - `patkit`: behind the framework's `requireToken` (`patkit/fastify`, `patkit/express`,
 *   `patkit/hono`) over a memory store, reading `PRIVATE-TOKEN`;
 * - `betterAuth`: behind a middleware calling better-auth's `verifyApiKey` (api-key plugin, memory
 *   adapter, rate limiting off), reading `x-api-key`, as its documentation checks a key.
 *
 * Both stores hold the same N keys. Sends `{ ports, secrets }` to its parent once all listen.
 */
import { serve } from '@hono/node-server'
import express from 'express'
import Fastify from 'fastify'
import { Hono } from 'hono'
import { requireToken as expressToken } from 'patkit/express'
import { fastifyPatkit, requireToken as fastifyToken } from 'patkit/fastify'
import { requireToken as honoToken } from 'patkit/hono'
import { betterAuthWith } from '../lib/better-auth.mjs'
import { ALICE, sampleIndexes, secretOf } from '../lib/dataset.mjs'
import { memoryPopulation, settle } from '../lib/memory-population.mjs'

/** Keys in each store. better-auth's memory adapter scans its key array, so more only widen the gap. */
const N = 1000
const { authority } = await memoryPopulation(N)
const auth = await betterAuthWith(N)
const secrets = sampleIndexes(N, 64).map(secretOf)
const scopes = /** @type {const} */ (['read_api', 'api'])
settle()

/** What every route answers for its caller; the open route answers it for a fixed one. */
const open = () => ({ id: ALICE.id, username: ALICE.username })

/**
 * better-auth's check of a presented key; `null` when refused.
 * @param {string | undefined} key
 */
async function betterAuthKey(key) {
  if (key === undefined) return null
  const result = await auth.api.verifyApiKey({ body: { key } })
  return result.valid && result.key !== null ? result.key : null
}
const UNAUTHORIZED = { message: '401 Unauthorized' }

// --- Fastify -------------------------------------------------------------------------------------
async function fastifyApps() {
  const plain = Fastify()
  plain.get('/me', async () => open())

  const guarded = Fastify()
  await guarded.register(fastifyPatkit)
  guarded.get('/me', { preHandler: fastifyToken({ authority, scopes: [...scopes] }) }, async (request) => ({
    id: request.principal.user.id,
    username: request.principal.user.username,
  }))

  const peer = Fastify()
  peer.get(
    '/me',
    {
      preHandler: async (request, reply) => {
        const header = request.headers['x-api-key']
        const key = await betterAuthKey(typeof header === 'string' ? header : undefined)
        if (key === null) return reply.code(401).send(UNAUTHORIZED)
        /** @type {{ apiKey?: unknown }} */ ;(request).apiKey = key
        return undefined
      },
    },
    async (request) => {
      const key = /** @type {{ referenceId?: string, userId?: string }} */ (
        /** @type {{ apiKey?: unknown }} */ (request).apiKey
      )
      return { id: key.referenceId ?? key.userId, username: ALICE.username }
    },
  )
  /** @param {import('fastify').FastifyInstance} app */
  const listen = async (app) => {
    await app.listen({ port: 0, host: '127.0.0.1' })
    const address = app.server.address()
    return typeof address === 'object' && address !== null ? address.port : 0
  }
  return { open: await listen(plain), patkit: await listen(guarded), betterAuth: await listen(peer) }
}

// --- Express -------------------------------------------------------------------------------------
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

async function expressApps() {
  const plain = express()
  plain.get('/me', (_req, res) => {
    res.json(open())
  })

  const guarded = express()
  guarded.get('/me', expressToken({ authority, scopes: [...scopes] }), (_req, res) => {
    res.json({ id: res.locals.principal.user.id, username: res.locals.principal.user.username })
  })

  const peer = express()
  peer.get(
    '/me',
    async (req, res, next) => {
      const key = await betterAuthKey(req.get('x-api-key'))
      if (key === null) {
        res.status(401).json(UNAUTHORIZED)
        return
      }
      res.locals['apiKey'] = key
      next()
    },
    (_req, res) => {
      const key = /** @type {{ referenceId?: string, userId?: string }} */ (res.locals['apiKey'])
      res.json({ id: key.referenceId ?? key.userId, username: ALICE.username })
    },
  )
  /** @param {import('express').Express} app */
  const listen = (app) => portOf(app.listen(0, '127.0.0.1'))
  return { open: await listen(plain), patkit: await listen(guarded), betterAuth: await listen(peer) }
}

// --- Hono ----------------------------------------------------------------------------------------
async function honoApps() {
  const plain = new Hono()
  plain.get('/me', (c) => c.json(open()))

  const guarded = new Hono()
  guarded.get('/me', honoToken({ authority, scopes: [...scopes] }), (c) =>
    c.json({ id: c.var.principal.user.id, username: c.var.principal.user.username }),
  )

  /** @type {Hono<{ Variables: { apiKey: { referenceId?: string, userId?: string } } }>} */
  const peer = new Hono()
  peer.get(
    '/me',
    async (c, next) => {
      const key = await betterAuthKey(c.req.header('x-api-key'))
      if (key === null) return c.json(UNAUTHORIZED, 401)
      c.set('apiKey', key)
      await next()
      return undefined
    },
    (c) => {
      const key = c.var.apiKey
      return c.json({ id: key.referenceId ?? key.userId, username: ALICE.username })
    },
  )
  /** @param {{ fetch: (request: Request) => Response | Promise<Response> }} app */
  const listen = (app) =>
    portOf(
      /** @type {import('node:http').Server} */ (serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' })),
    )
  return { open: await listen(plain), patkit: await listen(guarded), betterAuth: await listen(peer) }
}

const ports = { fastify: await fastifyApps(), express: await expressApps(), hono: await honoApps() }
process.send?.({ ports, secrets, keys: N })
process.on('disconnect', () => process.exit(0))
