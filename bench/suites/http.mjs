/**
 * Target 3: `GET /api/v4/personal_access_tokens/self` through `createNodeListener(authority)` on
 * node:http against a bare node:http handler returning the same JSON. autocannon (in this process)
 * loads each server (in a child process) with the same connections and duration, in runs whose order
 * rotates; the ratio is the median of the per-run ratios of requests per second. The note reports the
 * general path, `toNodeListener(createHandler(authority))`, measured in the same runs; target 3g compares
 * that path with its floor, a bare web-standard handler doing the same lookup behind the same adapter.
 */
import { fork } from 'node:child_process'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { median } from '../lib/compare.mjs'
import { finish, progress, settings } from '../lib/suite.mjs'

const config = settings()
const CONNECTIONS = 10
const THRESHOLD = 0.75
/** Target 3g: the general path against its floor behind the same adapter. */
const GENERAL_THRESHOLD = 0.8
// Issue 29: patkit at 0.85 or more of the authenticating floor of the same runs.
const FLOOR_THRESHOLD = 0.85
const PATH = '/api/v4/personal_access_tokens/self'
const here = dirname(fileURLToPath(import.meta.url))

const server = fork(join(here, 'http-server.mjs'), [], {
  env: process.env,
  execArgv: ['--max-old-space-size=8192', '--expose-gc'],
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
})
/** @type {{ patkit: number, adapted: number, bare: number, floor: number, webFloor: number, secrets: string[] }} */
const ready = await new Promise((resolve, reject) => {
  server.once('message', (message) => resolve(/** @type {any} */ (message)))
  server.once('exit', (code) => reject(new Error(`server exited with ${code}`)))
})
progress(
  `http: servers on ports ${ready.patkit} (patkit), ${ready.adapted} (toNodeListener), ${ready.bare} (bare), ${ready.floor} (bare + HMAC) and ${ready.webFloor} (web-standard bare + HMAC behind toNodeListener)`,
)

/**
 * One autocannon run; throws unless every response was a 200.
 * @param {number} port
 * @param {number} seconds
 */
async function load(port, seconds) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: seconds,
    // A different token on each request, so authentication is not one hot cache line.
    requests: ready.secrets.map((secret) => ({
      method: 'GET',
      path: PATH,
      headers: { 'private-token': secret },
    })),
  })
  const ok = result['2xx']
  if (result.non2xx > 0 || result.errors > 0 || ok === 0) {
    throw new Error(`port ${port}: ${result.non2xx} non-2xx, ${result.errors} errors`)
  }
  return ok / seconds
}

// Warm every server (JIT, connection pools) before anything counts.
await load(ready.patkit, 1)
await load(ready.adapted, 1)
await load(ready.bare, 1)
await load(ready.floor, 1)
await load(ready.webFloor, 1)
/** @type {Record<'patkit' | 'adapted' | 'bare' | 'floor' | 'webFloor', number>} */
const portOf = {
  patkit: ready.patkit,
  adapted: ready.adapted,
  bare: ready.bare,
  floor: ready.floor,
  webFloor: ready.webFloor,
}
/** @type {number[]} */ const patkitRps = []
/** @type {number[]} */ const adaptedRps = []
/** @type {number[]} */ const bareRps = []
/** @type {number[]} */ const ratios = []
/** @type {number[]} */ const adaptedRatios = []
/** @type {number[]} */ const floorRps = []
/** @type {number[]} */ const floorRatios = []
/** @type {number[]} */ const webFloorRps = []
/** @type {number[]} */ const generalRatios = []
/** @type {('patkit' | 'adapted' | 'bare' | 'floor' | 'webFloor')[]} */
const contenders = ['bare', 'patkit', 'adapted', 'floor', 'webFloor']
for (let run = 0; run < config.httpRuns; run++) {
  // The order rotates, so no server always runs first (or right after another).
  const order = contenders.map((_, i) => contenders[(i + run) % contenders.length] ?? 'bare')
  /** @type {Record<string, number>} */ const rps = {}
  for (const name of order) rps[name] = await load(portOf[name], config.httpSeconds)
  patkitRps.push(rps['patkit'] ?? 0)
  adaptedRps.push(rps['adapted'] ?? 0)
  bareRps.push(rps['bare'] ?? 0)
  ratios.push((rps['patkit'] ?? 0) / (rps['bare'] ?? 1))
  adaptedRatios.push((rps['adapted'] ?? 0) / (rps['bare'] ?? 1))
  floorRps.push(rps['floor'] ?? 0)
  floorRatios.push((rps['floor'] ?? 0) / (rps['bare'] ?? 1))
  webFloorRps.push(rps['webFloor'] ?? 0)
  generalRatios.push((rps['adapted'] ?? 0) / (rps['webFloor'] ?? 1))
}
server.kill()
const ratio = median(ratios)
// The measure: patkit against the authenticating floor of the same run.
const floorShares = patkitRps.map((rps, i) => rps / (floorRps[i] ?? 1))
const generalRatio = median(generalRatios)

finish({
  targets: [
    {
      id: '3',
      title: `HTTP GET ${PATH} on node:http vs a bare handler (autocannon, ${CONNECTIONS} connections, ${config.httpRuns} × ${config.httpSeconds} s each)`,
      baseline: { name: 'bare node:http', value: median(bareRps), unit: 'req/s' },
      subject: { name: 'patkit createNodeListener', value: median(patkitRps), unit: 'req/s' },
      ratio,
      ratioLabel: 'subject / baseline requests per second',
      direction: 'min',
      threshold: THRESHOLD,
      pass: ratio >= THRESHOLD,
      spread: ratios,
      note: `the general path, toNodeListener(createHandler(authority)), in the same runs: ${Math.round(median(adaptedRps)).toLocaleString('en-US')} req/s, ${median(adaptedRatios).toFixed(2)} of bare node:http; the bare handler after the HMAC and Map lookup of the presented token (the least an authenticating server does): ${Math.round(median(floorRps)).toLocaleString('en-US')} req/s, ${median(floorRatios).toFixed(2)} of bare node:http; patkit is ${median(floorShares).toFixed(2)} of that floor (runs: ${floorShares.map((r) => r.toFixed(2)).join(', ')})`,
    },
    {
      id: '3f',
      title: `HTTP GET ${PATH} on node:http vs the authenticating floor: a bare handler after the HMAC and Map lookup of the presented token (autocannon, ${CONNECTIONS} connections, ${config.httpRuns} × ${config.httpSeconds} s each)`,
      baseline: { name: 'authenticating floor', value: median(floorRps), unit: 'req/s' },
      subject: { name: 'patkit createNodeListener', value: median(patkitRps), unit: 'req/s' },
      ratio: median(floorShares),
      ratioLabel: 'subject / baseline requests per second',
      direction: 'min',
      threshold: FLOOR_THRESHOLD,
      pass: median(floorShares) >= FLOOR_THRESHOLD,
      spread: floorShares,
      note: 'the least an authenticating server does: what patkit adds over it is routing, the principal, the answer',
    },
    {
      id: '3g',
      title: `HTTP GET ${PATH}, the general path: toNodeListener(createHandler(authority)) vs a web-standard handler doing the HMAC and Map lookup behind the same toNodeListener (autocannon, ${CONNECTIONS} connections, ${config.httpRuns} × ${config.httpSeconds} s each)`,
      baseline: { name: 'web-standard floor', value: median(webFloorRps), unit: 'req/s' },
      subject: { name: 'patkit createHandler', value: median(adaptedRps), unit: 'req/s' },
      ratio: generalRatio,
      ratioLabel: 'subject / baseline requests per second',
      direction: 'min',
      threshold: GENERAL_THRESHOLD,
      pass: generalRatio >= GENERAL_THRESHOLD,
      spread: generalRatios,
      note: `the floor is ${median(webFloorRps.map((rps, i) => rps / (bareRps[i] ?? 1))).toFixed(2)} of bare node:http: the Request, Headers and Response the adapter builds for any handler`,
    },
  ],
  details: {
    http: { bareRps, patkitRps, adaptedRps, floorRps, webFloorRps, patkitOfFloor: floorShares },
  },
})
