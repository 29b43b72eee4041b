import express from 'express'
import Fastify from 'fastify'
import { Hono } from 'hono'
import { describe, expect, expectTypeOf, it } from 'vitest'
import type { Principal } from '../../src/authority/core/principal.js'
import type { Authority } from '../../src/authority/create-authority.js'
import { requireToken as expressToken, principalOf } from '../../src/express/index.js'
import { fastifyPatkit, requireToken as fastifyToken } from '../../src/fastify/index.js'
import { requireToken as honoToken } from '../../src/hono/index.js'
import type { GuardOptions } from '../../src/http/index.js'
import { withToken as nextToken } from '../../src/next/index.js'
import { world } from '../support/authority-fixtures.js'

// Type-level contracts of the guards: `npx tsc --noEmit` checks this file (tsconfig includes test/),
// the `expectTypeOf` lines and each `@ts-expect-error`, which fails to compile if its line compiles.
// The routes are built (not called) so the file also runs.

describe('the caller is typed where a guard provides it', () => {
  it('Express: res.locals.principal on the guarded route; principalOf(res) wherever Express cannot type it', async () => {
    const { authority } = await world()
    const app = express()
    app.get('/inline', expressToken({ authority, scopes: ['read_api'] }), (_req, res) => {
      expectTypeOf(res.locals.principal).toEqualTypeOf<Principal>()
      res.end()
    })
    const router = express.Router()
    router.use(expressToken({ authority, scopes: ['read_api'] }))
    router.get('/after-use', (req, res) => {
      // What Express gives a route behind router.use: `any`, hence principalOf.
      expectTypeOf(res.locals['principal']).toBeAny()
      expectTypeOf(principalOf(res)).toEqualTypeOf<Principal>()
      // @ts-expect-error principalOf takes the response, not the request
      principalOf(req)
      res.end()
    })
    expect(router.stack.length).toBeGreaterThan(0)
  })

  it('Fastify: request.principal is Principal (declared for every route; unguarded reads throw at run time)', async () => {
    const { authority } = await world()
    const app = Fastify()
    await app.register(fastifyPatkit)
    app.get('/me', { preHandler: fastifyToken({ authority, scopes: ['read_api'] }) }, async (request) => {
      expectTypeOf(request.principal).toEqualTypeOf<Principal>()
      return {}
    })
    await app.ready()
    await app.close()
  })

  it('Hono: c.var.principal on the guarded route', async () => {
    const { authority } = await world()
    const app = new Hono()
    app.get('/me', honoToken({ authority, scopes: ['read_api'] }), (c) => {
      expectTypeOf(c.var.principal).toEqualTypeOf<Principal>()
      return c.text('')
    })
    expect(app.routes.length).toBeGreaterThan(0)
  })

  it('Next.js: the handler’s third argument', async () => {
    const { authority } = await world()
    const GET = nextToken(
      (_request: Request, _context: unknown, principal) => {
        expectTypeOf(principal).toEqualTypeOf<Principal>()
        return new Response()
      },
      { authority, scopes: ['read_api'] },
    )
    expectTypeOf(GET).toEqualTypeOf<(request: Request, context: unknown) => Promise<Response>>()
  })
})

describe('GuardOptions types', () => {
  it("scopes is a list or 'any'; a single scope string does not compile", () => {
    expectTypeOf<NonNullable<GuardOptions['scopes']>>().toEqualTypeOf<readonly string[] | 'any'>()
    const check = (authority: Authority): GuardOptions[] => [
      { authority, scopes: ['api'] },
      { authority, scopes: 'any' },
      // @ts-expect-error a scope must be in a list: 'api' alone would not mean "api only"
      { authority, scopes: 'api' },
    ]
    expect(check).toBeTypeOf('function')
  })

  it('authority.settings.scopes is the readonly vocabulary', () => {
    expectTypeOf<Authority['settings']['scopes']>().toEqualTypeOf<readonly string[]>()
  })
})
