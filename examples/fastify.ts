// patkit inside a Fastify 5 application. Run it with `npx tsx examples/fastify.ts`, then:
//   curl -s -H "PRIVATE-TOKEN: glpat-example-alice-secret-1" http://127.0.0.1:3000/api/v4/personal_access_tokens/self
//   curl -s -H "PRIVATE-TOKEN: glpat-example-alice-secret-1" http://127.0.0.1:3000/me
//
// In your own project: import { createHandler } from 'patkit/http'
//                      import { fastifyPatkit, requireToken } from 'patkit/fastify'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import { fastifyPatkit, requireToken } from '../src/fastify/index.js'
import { createHandler, type Handler } from '../src/http/index.js'
import { demoAuthority, ME_SCOPES } from './demo-authority.js'
import { runIfMain, type Started } from './listen.js'

// Why a Request is built from Fastify's, rather than `reply.hijack()` and the raw req/res handed to
// createNodeListener: hijacking skips Fastify's reply lifecycle (onSend/onResponse hooks, logging, plugins
// such as CORS), and it only works if no content-type parser has already read the raw stream, which
// Fastify does for every POST/DELETE with a body before the handler runs. Here the parser below keeps
// the body as raw bytes, patkit parses them itself (GitLab's JSON/form rules and error bodies), and
// the answer goes out through `reply` like any other Fastify route. `fastify.inject()` works too.

function toRequest(request: FastifyRequest): Request {
  const headers = new Headers()
  for (const [key, value] of Object.entries(request.headers)) {
    if (value === undefined) continue
    for (const v of Array.isArray(value) ? value : [value]) headers.append(key, v)
  }
  const body = request.body instanceof Buffer && request.body.byteLength > 0 ? request.body : undefined
  return new Request(`${request.protocol}://${request.host}${request.url}`, {
    method: request.method,
    headers,
    ...(body === undefined || request.method === 'GET' || request.method === 'HEAD' ? {} : { body }),
  })
}

async function send(reply: FastifyReply, response: Response): Promise<FastifyReply> {
  reply.code(response.status)
  response.headers.forEach((value, key) => {
    reply.header(key, value)
  })
  return reply.send(response.body === null ? null : Buffer.from(await response.arrayBuffer()))
}

/** A Fastify plugin serving patkit under /api/v4. */
export function patkitPlugin(handler: Handler) {
  return async (scope: FastifyInstance): Promise<void> => {
    // Scoped to this plugin by Fastify's encapsulation: the rest of the app keeps its JSON parser.
    // Every media type is read as raw bytes, so patkit (not Fastify) answers a malformed JSON body
    // with GitLab's 400 and an unsupported media type with 415.
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => {
      done(null, body)
    })
    scope.all('/api/v4/*', async (request, reply) => send(reply, await handler(toRequest(request))))
  }
}

/** The Fastify app: patkit under /api/v4, the application's own routes beside it. */
export async function createApp(): Promise<FastifyInstance> {
  const authority = await demoAuthority()
  const app = Fastify()
  await app.register(patkitPlugin(createHandler(authority, { basePath: '/api/v4' })))
  app.post('/echo', async (request) => ({ received: request.body }))
  // The application's own route, for tokens with a read scope: `fastifyPatkit` declares
  // `request.principal` once, then one preHandler per route, and the principal is typed in the handler.
  await app.register(fastifyPatkit)
  const readers = requireToken({ authority, scopes: ME_SCOPES, realm: 'patkit example' })
  app.get('/me', { preHandler: readers }, async (request) => {
    const { user, token } = request.principal
    return { username: user.username, scopes: token.scopes }
  })
  return app
}

/** Serves the Fastify app on 127.0.0.1; port 0 picks a free port. */
export async function start(port = 0): Promise<Started> {
  const app = await createApp()
  const address = await app.listen({ port, host: '127.0.0.1' })
  return { url: address, close: () => app.close() }
}

await runIfMain(import.meta.url, start)
