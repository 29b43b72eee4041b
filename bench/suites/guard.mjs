/**
 * Target 21: what an embedder feels. `GET /me` on Fastify 5, Express 5 and Hono 4, each behind
 * patkit's guard (`requireToken` from patkit/fastify, patkit/express, patkit/hono, memory store)
 * against the same route without authentication (21a-c), and against the same route behind
 * better-auth's api-key check (`verifyApiKey`, memory adapter, the same number of keys) on the same
 * framework (21d-f). autocannon (in this process) loads each server (in two child processes, see
 * guard-server.mjs) with the same connections and duration, in runs whose order rotates; each ratio
 * is the median of the per-run ratios of requests per second.
 */
import { fork } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { median } from '../lib/compare.mjs'
import { sampleIndexes, secretOf } from '../lib/dataset.mjs'
import { finish, progress, settings } from '../lib/suite.mjs'

const config = settings()
const CONNECTIONS = 10
const OPEN_THRESHOLD = 0.8
const PEER_THRESHOLD = 3
// Many short runs rather than target 3's few long ones: four servers per framework take turns, and
// the more often they alternate, the less a slow phase of a shared machine falls on one of them.
const RUNS = config.quick ? 4 : 9
const SECONDS = config.quick ? 1 : 2
const here = dirname(fileURLToPath(import.meta.url))

/** @typedef {'open' | 'patkit' | 'floor' | 'betterAuth'} Contender */
/** @typedef {'fastify' | 'express' | 'hono'} Framework */

/**
 * Starts one server process (see guard-server.mjs for why two) and waits for its ports.
 * @param {'patkit' | 'better-auth'} group
 * @returns {Promise<{ child: import('node:child_process').ChildProcess, ports: Record<Framework, Partial<Record<Contender, number>>>, keys: number }>}
 */
async function start(group) {
  const child = fork(join(here, 'guard-server.mjs'), [group], {
    env: process.env,
    execArgv: ['--max-old-space-size=8192', '--expose-gc'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  /** @type {{ ports: Record<Framework, Partial<Record<Contender, number>>>, keys: number }} */
  const ready = await new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(/** @type {any} */ (message)))
    child.once('exit', (code) => reject(new Error(`${group} servers exited with ${code}`)))
  })
  return { child, ...ready }
}

const servers = [await start('patkit'), await start('better-auth')]
const keys = servers[0]?.keys ?? 0
/** @type {Record<Framework, Record<Contender, number>>} */
const portsOf = /** @type {any} */ ({})
for (const framework of /** @type {Framework[]} */ (['fastify', 'express', 'hono'])) {
  portsOf[framework] = /** @type {Record<Contender, number>} */ (
    Object.assign({}, ...servers.map((s) => s.ports[framework]))
  )
}
// The same 64 keys of the population on every side, one per request in turn.
const secrets = sampleIndexes(keys, 64).map(secretOf)
progress(`guard: 12 servers in 2 processes ready, ${keys} keys in each store`)

/** The header each side reads the key from; the open route gets patkit's, and ignores it. */
const HEADER = /** @type {Record<Contender, string>} */ ({
  open: 'private-token',
  patkit: 'private-token',
  floor: 'private-token',
  betterAuth: 'x-api-key',
})

/**
 * One autocannon run; throws unless every response was a 200.
 * @param {number} port
 * @param {Contender} contender
 * @param {number} seconds
 */
async function load(port, contender, seconds) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: seconds,
    // A different key on each request, so authentication is not one hot cache line.
    requests: secrets.map((secret) => ({
      method: 'GET',
      path: '/me',
      headers: { [HEADER[contender]]: secret },
    })),
  })
  const ok = result['2xx']
  if (result.non2xx > 0 || result.errors > 0 || ok === 0) {
    throw new Error(`${contender} on port ${port}: ${result.non2xx} non-2xx, ${result.errors} errors`)
  }
  return ok / seconds
}

/** @type {Contender[]} */
const CONTENDERS = ['open', 'patkit', 'floor', 'betterAuth']
/** @type {Framework[]} */
const FRAMEWORKS = ['fastify', 'express', 'hono']

/** @param {Framework} framework */
async function measure(framework) {
  const ports = portsOf[framework]
  // Warm every server (JIT) before anything counts.
  for (const contender of CONTENDERS) await load(ports[contender], contender, 1)
  /** @type {Record<Contender, number[]>} */ const rps = { open: [], patkit: [], floor: [], betterAuth: [] }
  /** @type {number[]} */ const openRatios = []
  /** @type {number[]} */ const peerRatios = []
  /** @type {number[]} */ const floorRatios = []
  for (let run = 0; run < RUNS; run++) {
    // The order rotates, so no server always runs first (or right after another).
    const order = CONTENDERS.map((_, i) => CONTENDERS[(i + run) % CONTENDERS.length] ?? 'open')
    /** @type {Partial<Record<Contender, number>>} */ const got = {}
    for (const contender of order) got[contender] = await load(ports[contender], contender, SECONDS)
    for (const contender of CONTENDERS) rps[contender].push(got[contender] ?? 0)
    openRatios.push((got.patkit ?? 0) / (got.open ?? 1))
    peerRatios.push((got.patkit ?? 0) / (got.betterAuth ?? 1))
    floorRatios.push((got.floor ?? 0) / (got.open ?? 1))
  }
  progress(`guard: ${framework} done`)
  return { rps, openRatios, peerRatios, floorRatios }
}

/** @type {Record<Framework, Awaited<ReturnType<typeof measure>>>} */
const results = /** @type {any} */ ({})
for (const framework of FRAMEWORKS) results[framework] = await measure(framework)
for (const server of servers) server.child.kill()

const NAMES = /** @type {Record<Framework, string>} */ ({
  fastify: 'Fastify 5 (patkit/fastify)',
  express: 'Express 5 (patkit/express)',
  hono: 'Hono 4 on @hono/node-server (patkit/hono)',
})
const runs = `autocannon, ${CONNECTIONS} connections, ${RUNS} × ${SECONDS} s each`

/**
 * @param {string} id @param {string} title
 * @param {{ name: string, rps: number[] }} baseline @param {{ name: string, rps: number[] }} subject
 * @param {number[]} ratios @param {number} threshold @param {string} [extra] More for the note.
 * @returns {import('../lib/suite.mjs').Target}
 */
function target(id, title, baseline, subject, ratios, threshold, extra = '') {
  const ratio = median(ratios)
  return {
    id,
    title,
    baseline: { name: baseline.name, value: median(baseline.rps), unit: 'req/s' },
    subject: { name: subject.name, value: median(subject.rps), unit: 'req/s' },
    ratio,
    ratioLabel: 'subject / baseline requests per second',
    direction: 'min',
    threshold,
    pass: ratio >= threshold,
    spread: ratios,
    note: `per run: ${ratios.map((r) => r.toFixed(2)).join(', ')}${extra}`,
  }
}

finish({
  targets: [
    ...FRAMEWORKS.map((framework, k) =>
      target(
        `21${'abc'[k]}`,
        `${NAMES[framework]}: GET /me behind requireToken vs without authentication (${runs})`,
        { name: 'no authentication', rps: results[framework].rps.open },
        { name: 'patkit requireToken', rps: results[framework].rps.patkit },
        results[framework].openRatios,
        OPEN_THRESHOLD,
        `; the open route behind the HMAC and Map lookup of the presented token alone (the least an authenticating middleware does): ${Math.round(median(results[framework].rps.floor)).toLocaleString('en-US')} req/s, ${median(results[framework].floorRatios).toFixed(2)} of the open route`,
      ),
    ),
    ...FRAMEWORKS.map((framework, k) =>
      target(
        `21${'def'[k]}`,
        `${NAMES[framework]}: GET /me behind requireToken vs behind better-auth 1.7.5 verifyApiKey, memory stores of ${keys.toLocaleString('en')} keys each (${runs})`,
        { name: 'better-auth verifyApiKey', rps: results[framework].rps.betterAuth },
        { name: 'patkit requireToken', rps: results[framework].rps.patkit },
        results[framework].peerRatios,
        PEER_THRESHOLD,
      ),
    ),
  ],
})
