/**
 * Target 9b: the cold start of `patkit serve`, from spawn to the first answered request, against the
 * same for the smallest Node server there is: `node -e` a bare node:http server that answers every
 * request with `{}`. patkit's side runs `node dist/cli.js serve --port 0` (memory store, demo users),
 * reads the listening line and root's demo token from stdout, and times until `GET
 * /api/v4/personal_access_tokens/self` with that token has answered 200; the bare side until its `GET
 * /` has answered. Each process is killed once answered. The sides alternate (baseline first in even
 * rounds, patkit first in odd ones), and the ratio is the median of the per-round ratios of the
 * median times, as target 9 does.
 */
import { spawn } from 'node:child_process'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { median } from '../lib/compare.mjs'
import { finish, progress, settings } from '../lib/suite.mjs'

const config = settings()
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const CLI = join(root, 'dist', 'cli.js')
const SELF = '/api/v4/personal_access_tokens/self'
const THRESHOLD = 2.5
/** Processes per side per round. */
const PER_ROUND = config.quick ? 3 : 5
/** Bound of a start: a server that needs longer is broken, not slow. */
const START_TIMEOUT_MS = 20_000

const BARE_SERVER = `require('node:http').createServer((q, s) => { s.setHeader('content-type', 'application/json'); s.end('{}') }).listen(0, '127.0.0.1', function () { console.log('listening on http://127.0.0.1:' + this.address().port) })`

/**
 * Spawns `args`, waits for the lines `ready` needs to name a request, sends it, and resolves with the
 * milliseconds from spawn to the answer (status checked, body read).
 * @param {string[]} args
 * @param {(lines: string[]) => { url: string, headers?: Record<string, string> } | undefined} ready
 * @param {number} status
 */
function timedStart(args, ready, status) {
  const started = performance.now()
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['pipe', 'pipe', 'ignore'] })
  return /** @type {Promise<number>} */ (
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL')
        reject(new Error(`${args.join(' ')} did not answer within ${START_TIMEOUT_MS} ms`))
      }, START_TIMEOUT_MS)
      const exited = (/** @type {number | null} */ code) => {
        clearTimeout(timer)
        reject(new Error(`${args.join(' ')} exited with ${code} before answering`))
      }
      child.once('exit', exited)
      /** @type {string[]} */ const lines = []
      const reader = createInterface({ input: /** @type {import('node:stream').Readable} */ (child.stdout) })
      reader.on('line', async (line) => {
        lines.push(line)
        const request = ready(lines)
        if (request === undefined) return
        reader.close()
        child.stdout?.resume()
        try {
          const response = await fetch(request.url, { headers: request.headers ?? {} })
          await response.arrayBuffer()
          if (response.status !== status) throw new Error(`${request.url}: ${response.status}`)
          const ms = performance.now() - started
          clearTimeout(timer)
          child.off('exit', exited)
          child.kill('SIGKILL')
          resolve(ms)
        } catch (error) {
          clearTimeout(timer)
          child.off('exit', exited)
          child.kill('SIGKILL')
          reject(error)
        }
      })
    })
  )
}

function bare() {
  return timedStart(
    ['-e', BARE_SERVER],
    (lines) => {
      const url = /^listening on (http:\/\/\S+)$/.exec(lines[0] ?? '')?.[1]
      return url === undefined ? undefined : { url: `${url}/` }
    },
    200,
  )
}

function patkit() {
  return timedStart(
    [CLI, 'serve', '--port', '0'],
    (lines) => {
      const url = /^patkit listening on (http:\/\/\S+)$/.exec(lines[0] ?? '')?.[1]
      const secret = lines.map((line) => /^root \(admin\): (\S+)$/.exec(line)?.[1]).find(Boolean)
      return url === undefined || secret === undefined
        ? undefined
        : { url: `${url}${SELF}`, headers: { 'PRIVATE-TOKEN': secret } }
    },
    200,
  )
}

// Warm the file cache for both sides (the first start after a build reads from disk).
await bare()
await patkit()

/** @type {number[]} */ const bareMs = []
/** @type {number[]} */ const patkitMs = []
/** @type {number[]} */ const ratios = []
for (let round = 0; round < config.rounds; round++) {
  /** @type {number[]} */ const b = []
  /** @type {number[]} */ const p = []
  for (let i = 0; i < PER_ROUND; i++) {
    if ((round + i) % 2 === 0) {
      b.push(await bare())
      p.push(await patkit())
    } else {
      p.push(await patkit())
      b.push(await bare())
    }
  }
  bareMs.push(...b)
  patkitMs.push(...p)
  ratios.push(median(p) / median(b))
  progress(
    `serve cold start round ${round + 1}: bare node:http ${median(b).toFixed(1)} ms, patkit serve ${median(p).toFixed(1)} ms`,
  )
}

const ratio = median(ratios)
finish({
  targets: [
    {
      id: '9b',
      title: `cold start: patkit serve vs node -e a bare node:http server (spawn to first answered request, ${bareMs.length} processes each)`,
      baseline: { name: 'node -e bare server', value: median(bareMs), unit: 'ms' },
      subject: { name: 'patkit serve', value: median(patkitMs), unit: 'ms' },
      ratio,
      ratioLabel: 'subject time / baseline time',
      direction: 'max',
      threshold: THRESHOLD,
      pass: ratio <= THRESHOLD,
      spread: ratios,
      note: `patkit's request is GET ${SELF} with root's demo token (200); patkit serve adds ${(median(patkitMs) - median(bareMs)).toFixed(0)} ms to a bare server's start (medians)`,
    },
  ],
  details: { serveColdStart: { bareMs, patkitMs, ratios } },
})
