/**
 * The servers of target 3, in one process of their own (the load generator runs in the suite's
 * process, so each has a core): patkit's API through createNodeListener over a memory store of N
 * tokens, the same API through toNodeListener(createHandler(authority)) (the general Request/Response
 * path, for the note), a bare node:http handler that answers the same JSON, and that handler after
 * the HMAC and Map lookup of the presented token (`floor`, for the note), and the floor of the general
 * path: a web-standard `(Request) => Response` handler doing that lookup and answering the same JSON,
 * behind the same toNodeListener (`webFloor`). Sends `{ patkit, adapted, bare, floor, webFloor, secrets }`
 * (ports and the secrets to present) to its parent once all listen.
 */
import { createServer } from 'node:http'
import { createHandler, tokenJson } from 'patkit/http'
import { createNodeListener, toNodeListener } from 'patkit/node'
import { benchDigester, NOW, sampleIndexes, secretOf } from '../lib/dataset.mjs'
import { memoryPopulation } from '../lib/memory-population.mjs'
import { settings } from '../lib/suite.mjs'

const config = settings()
/** @type {Map<string, number>} */
const floorIndex = new Map()
const { authority } = await memoryPopulation(config.n, (token) => floorIndex.set(token.digest, token.id))
const digest = benchDigester()
const secrets = sampleIndexes(config.n, 64).map(secretOf)
const first = await authority.authenticate(secrets[0])
if (first.isErr()) throw new Error(`authenticate: ${first.error.type}`)
const self = tokenJson(first.value.token, NOW)

/** @param {import('node:http').Server} server @returns {Promise<number>} */
const listen = (server) =>
  new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      resolve(typeof address === 'object' && address !== null ? address.port : 0)
    })
  })

const patkit = createServer(createNodeListener(authority))
const adapted = createServer(toNodeListener(createHandler(authority)))
// The floor: routing by one string comparison, no authentication, the same body built per request.
/** @type {import('node:http').RequestListener} */
const bareHandler = (req, res) => {
  if (req.url !== '/api/v4/personal_access_tokens/self') {
    res.writeHead(404).end()
    return
  }
  const body = JSON.stringify(self)
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
  res.end(body)
}
const bare = createServer(bareHandler)
// The least an authenticating server does: the bare handler, after the HMAC of the presented token and
// one Map.get of its digest (as target 1's floor), answering 401 for an unknown one.
const authenticating = createServer((req, res) => {
  const secret = req.headers['private-token']
  if (typeof secret !== 'string' || floorIndex.get(digest(secret)) === undefined) {
    res.writeHead(401).end()
    return
  }
  bareHandler(req, res)
})
// The general path's floor: what any web-standard handler costs behind toNodeListener (a Request and
// its Headers built, a Response read back), with the same lookup and body as `authenticating`.
const webFloor = createServer(
  toNodeListener(async (request) => {
    const secret = request.headers.get('private-token')
    if (new URL(request.url).pathname !== '/api/v4/personal_access_tokens/self') {
      return new Response(null, { status: 404 })
    }
    if (secret === null || floorIndex.get(digest(secret)) === undefined) {
      return new Response(null, { status: 401 })
    }
    return new Response(JSON.stringify(self), { headers: { 'content-type': 'application/json' } })
  }),
)
const ports = {
  patkit: await listen(patkit),
  floor: await listen(authenticating),
  adapted: await listen(adapted),
  bare: await listen(bare),
  webFloor: await listen(webFloor),
  secrets,
}
process.send?.(ports)
process.on('disconnect', () => process.exit(0))
