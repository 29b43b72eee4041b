/**
 * Target 21: what an embedder feels. `GET /me` on Fastify 5, Express 5 and Hono 4, each behind
 * patkit's guard (`requireToken` from patkit/fastify, patkit/express, patkit/hono, memory store)
 * against the same route without authentication (21a-c), and against the same route behind
 * better-auth's api-key check (`verifyApiKey`, memory adapter, the same number of keys) on the same
 * framework (21d-f). autocannon (in this process) loads each server (all in one child process) with
 * the same connections and duration, in runs whose order rotates; each ratio is the median of the
 * per-run ratios of requests per second.
 */
import { fork } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { median } from '../lib/compare.mjs'
import { finish, progress, settings } from '../lib/suite.mjs'

const config = settings()
const CONNECTIONS = 10
const OPEN_THRESHOLD = 0.8
const PEER_THRESHOLD = 3
const here = dirname(fileURLToPath(import.meta.url))

/** @typedef {'open' | 'patkit' | 'betterAuth'} Contender */
/** @typedef {'fastify' | 'express' | 'hono'} Framework */

const server = fork(join(here, 'guard-server.mjs'), [], {
  env: process.env,
  execArgv: ['--max-old-space-size=8192', '--expose-gc'],
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
})
/** @type {{ ports: Record<Framework, Record<Contender, number>>, secrets: string[], keys: number }} */
const ready = await new Promise((resolve, reject) => {
  server.once('message', (message) => resolve(/** @type {any} */ (message)))
  server.once('exit', (code) => reject(new Error(`server exited with ${code}`)))
})
progress(`guard: 9 servers ready, ${ready.keys} keys in each store`)

/** The header each side reads the key from; the open route gets patkit's, and ignores it. */
const HEADER = /** @type {Record<Contender, string>} */ ({
  open: 'private-token',
  patkit: 'private-token',
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
    requests: ready.secrets.map((secret) => ({
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
const CONTENDERS = ['open', 'patkit', 'betterAuth']
/** @type {Framework[]} */
const FRAMEWORKS = ['fastify', 'express', 'hono']

/** @param {Framework} framework */
async function measure(framework) {
  const ports = ready.ports[framework]
  // Warm every server (JIT) before anything counts.
  for (const contender of CONTENDERS) await load(ports[contender], contender, 1)
  /** @type {Record<Contender, number[]>} */ const rps = { open: [], patkit: [], betterAuth: [] }
  /** @type {number[]} */ const openRatios = []
  /** @type {number[]} */ const peerRatios = []
  for (let run = 0; run < config.httpRuns; run++) {
    // The order rotates, so no server always runs first (or right after another).
    const order = CONTENDERS.map((_, i) => CONTENDERS[(i + run) % CONTENDERS.length] ?? 'open')
    /** @type {Partial<Record<Contender, number>>} */ const got = {}
    for (const contender of order)
      got[contender] = await load(ports[contender], contender, config.httpSeconds)
    for (const contender of CONTENDERS) rps[contender].push(got[contender] ?? 0)
    openRatios.push((got.patkit ?? 0) / (got.open ?? 1))
    peerRatios.push((got.patkit ?? 0) / (got.betterAuth ?? 1))
  }
  progress(`guard: ${framework} done`)
  return { rps, openRatios, peerRatios }
}

/** @type {Record<Framework, Awaited<ReturnType<typeof measure>>>} */
const results = /** @type {any} */ ({})
for (const framework of FRAMEWORKS) results[framework] = await measure(framework)
server.kill()

const NAMES = /** @type {Record<Framework, string>} */ ({
  fastify: 'Fastify 5 (patkit/fastify)',
  express: 'Express 5 (patkit/express)',
  hono: 'Hono 4 on @hono/node-server (patkit/hono)',
})
const runs = `autocannon, ${CONNECTIONS} connections, ${config.httpRuns} × ${config.httpSeconds} s each`

/**
 * @param {string} id @param {string} title
 * @param {{ name: string, rps: number[] }} baseline @param {{ name: string, rps: number[] }} subject
 * @param {number[]} ratios @param {number} threshold
 * @returns {import('../lib/suite.mjs').Target}
 */
function target(id, title, baseline, subject, ratios, threshold) {
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
    note: `per run: ${ratios.map((r) => r.toFixed(2)).join(', ')}`,
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
      ),
    ),
    ...FRAMEWORKS.map((framework, k) =>
      target(
        `21${'def'[k]}`,
        `${NAMES[framework]}: GET /me behind requireToken vs behind better-auth 1.7.5 verifyApiKey, memory stores of ${ready.keys.toLocaleString('en')} keys each (${runs})`,
        { name: 'better-auth verifyApiKey', rps: results[framework].rps.betterAuth },
        { name: 'patkit requireToken', rps: results[framework].rps.patkit },
        results[framework].peerRatios,
        PEER_THRESHOLD,
      ),
    ),
  ],
})
