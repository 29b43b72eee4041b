/**
 * Target 24: the fake's access-token expiry webhooks at volume. 1,000 project hooks subscribed to
 * `resource_access_token_events` hear one bot token's 7-day notice, which falls due on one clock
 * advance (`POST /__patkit/clock/advance`, then `POST /__patkit/deliveries/wait`); deliveries per
 * second, against the same 1,000 POSTs of the same body made straight with `fetch` at the fake's
 * queue width (8) to the same local receiver. Each side is measured in alternating rounds; the ratio
 * is the medians'.
 */
import { createServer } from 'node:http'
import { createFakeGitLab } from 'patkit/fake'
import { finish, progress, settings } from '../lib/suite.mjs'

const config = settings()
const HOOKS = 1000
const WIDTH = 8
const THRESHOLD = 0.5

const server = createServer((req, res) => {
  req.resume()
  req.on('end', () => res.end('ok'))
})
await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)))
const address = /** @type {import('node:net').AddressInfo} */ (server.address())
const receiver = `http://127.0.0.1:${address.port}/hook`

const gitlab = await createFakeGitLab({
  users: [
    { id: 1, username: 'root', admin: true },
    { id: 10, username: 'project_7_bot', bot: true, bot_namespace: { type: 'project', id: 7 } },
  ],
  projects: [{ id: 7, path: 'api', name: 'API', members: [{ user_id: 10, access_level: 40 }] }],
})
const hooks = gitlab.store.resources?.hooks
if (hooks === undefined) throw new Error('the memory store has no hook store')
for (let i = 0; i < HOOKS; i++) {
  const made = await hooks.insertHook({
    resource: { type: 'project', id: 7 },
    url: receiver,
    name: null,
    description: null,
    sealedToken: null,
    events: { resource_access_token_events: true },
    enableSslVerification: true,
    createdAt: gitlab.clock.now(),
  })
  if (made.isErr()) throw new Error('insertHook failed')
}

/** @param {string} method @param {string} path @param {unknown} [body] */
async function control(method, path, body) {
  const response = await fetch(`${gitlab.url}/__patkit${path}`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  })
  await response.arrayBuffer()
  if (response.status !== 200) throw new Error(`${method} ${path}: ${response.status}`)
}

const day = (/** @type {Date} */ at, /** @type {number} */ n) =>
  new Date(at.getTime() + n * 86_400_000).toISOString().slice(0, 10)

/** One advance that makes 1,000 deliveries: a new bot token 8 days from expiry, one day on. */
async function fake() {
  await gitlab.issueToken({
    userId: 10,
    name: 'deploy',
    scopes: ['api'],
    expiresAt: day(gitlab.clock.now(), 8),
  })
  const started = performance.now()
  await control('POST', '/clock/advance', { days: 1 })
  await control('POST', '/deliveries/wait')
  return performance.now() - started
}

const body = JSON.stringify({
  object_kind: 'access_token',
  event_name: 'expiring_access_token',
  padding: 'x'.repeat(600),
})
/** The same 1,000 POSTs straight, WIDTH at a time. */
async function direct() {
  const started = performance.now()
  let next = 0
  const worker = async () => {
    while (next < HOOKS) {
      next++
      const response = await fetch(receiver, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      })
      await response.arrayBuffer()
    }
  }
  await Promise.all(Array.from({ length: WIDTH }, worker))
  return performance.now() - started
}

const median = (/** @type {number[]} */ xs) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)] ?? Number.NaN
}
await fake()
await direct()
/** @type {number[]} */ const fakeRates = []
/** @type {number[]} */ const directRates = []
/** @type {number[]} */ const ratios = []
for (let round = 0; round < config.rounds; round++) {
  const first = round % 2 === 0
  const a = first ? await fake() : await direct()
  const b = first ? await direct() : await fake()
  const [f, d] = first ? [a, b] : [b, a]
  fakeRates.push((HOOKS * 1000) / f)
  directRates.push((HOOKS * 1000) / d)
  ratios.push(d / f)
  progress(
    `hook-deliveries: round ${round + 1}: fake ${Math.round((HOOKS * 1000) / f)}/s, direct ${Math.round((HOOKS * 1000) / d)}/s`,
  )
}
await gitlab.close()
await new Promise((resolve) => server.close(() => resolve(undefined)))

const ratio = median(ratios)
finish({
  targets: [
    {
      id: '25',
      title: `fake expiry webhooks: ${HOOKS.toLocaleString('en')} hooks due on one clock advance vs the same POSTs made straight (width ${WIDTH}, local receiver)`,
      baseline: { name: 'fetch POSTs', value: median(directRates), unit: 'per s' },
      subject: { name: 'advance + wait', value: median(fakeRates), unit: 'per s' },
      ratio,
      ratioLabel: 'fake deliveries / straight POSTs per second',
      direction: 'min',
      threshold: THRESHOLD,
      pass: ratio >= THRESHOLD,
      spread: ratios,
    },
  ],
})
