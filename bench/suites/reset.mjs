/**
 * Target 8: how a test suite in another language gets a fresh fake GitLab between tests.
 *
 * - baseline, a restart: spawn `node dist/cli.js serve --port 0 --seed examples/seed.json`, read the
 *   first stdout line, get one answered request (GET /api/v4/personal_access_tokens/self, 200), then
 *   SIGKILL the process (not waited for, which only flatters the restart);
 * - 8, reset: `POST /__patkit/reset` on a running `patkit serve` started with the same seed, then the
 *   same answered request;
 * - 8b, restore: `PUT /__patkit/state` with the snapshot (`GET /__patkit/state`) of that seed, then the
 *   same answered request.
 *
 * The three are measured in rounds with a rotating order (alternateMany); the ratios are reset (or
 * restore) operations per second over restarts per second in the same round, medians over the rounds.
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { alternateMany } from '../lib/compare.mjs'
import { finish, progress, settings } from '../lib/suite.mjs'

const config = settings()
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const CLI = join(root, 'dist', 'cli.js')
const SEED_FILE = join(root, 'examples', 'seed.json')
const SELF = '/api/v4/personal_access_tokens/self'
/** Bound of a start: a server that needs longer is broken, not slow. */
const START_TIMEOUT_MS = 20_000
const THRESHOLD = 50

/** @type {{ tokens: { token?: string, user_id: number }[] }} */
const seed = JSON.parse(readFileSync(SEED_FILE, 'utf8'))
const secret = seed.tokens.find((t) => t.token !== undefined && t.user_id === 1)?.token
if (secret === undefined) throw new Error(`${SEED_FILE} has no token of user 1 with a known secret`)

/**
 * Starts `patkit serve` with the seed; resolves with the child and its URL from the first line.
 * stdin is a pipe: the server also exits when this process does, however it ends.
 */
function start() {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--seed', SEED_FILE], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'ignore'],
  })
  return /** @type {Promise<{ child: import('node:child_process').ChildProcess, url: string }>} */ (
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL')
        reject(new Error(`patkit serve printed nothing within ${START_TIMEOUT_MS} ms`))
      }, START_TIMEOUT_MS)
      const exited = (/** @type {number | null} */ code) => {
        clearTimeout(timer)
        reject(new Error(`patkit serve exited with ${code} before listening`))
      }
      child.once('exit', exited)
      createInterface({ input: /** @type {import('node:stream').Readable} */ (child.stdout) }).once(
        'line',
        (line) => {
          clearTimeout(timer)
          child.off('exit', exited)
          child.stdout?.resume()
          const url = /^patkit listening on (http:\/\/\S+)$/.exec(line)?.[1]
          if (url === undefined) reject(new Error(`unexpected first line: ${line}`))
          else resolve({ child, url })
        },
      )
    })
  )
}

/** One answered API request: the seed's root token reads itself. @param {string} url */
async function answered(url) {
  const response = await fetch(`${url}${SELF}`, { headers: { 'PRIVATE-TOKEN': secret ?? '' } })
  await response.arrayBuffer()
  if (response.status !== 200) throw new Error(`GET ${SELF}: ${response.status}`)
}

/** @param {string} url @param {string} method @param {string} path @param {string} [body] */
async function control(url, method, path, body) {
  const response = await fetch(`${url}/__patkit${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body }),
  })
  const text = await response.text()
  if (response.status !== 200) throw new Error(`${method} /__patkit${path}: ${response.status} ${text}`)
  return text
}

const running = await start()
const snapshot = await control(running.url, 'GET', '/state')
progress(`reset: a running patkit serve at ${running.url}; snapshot of ${snapshot.length} bytes`)

const result = await alternateMany({
  contenders: [
    {
      name: 'restart (spawn to first answered request, kill)',
      fn: async () => {
        const { child, url } = await start()
        try {
          await answered(url)
        } finally {
          child.kill('SIGKILL')
        }
      },
      minCalls: 5,
    },
    {
      name: 'POST /__patkit/reset, then a request',
      fn: async () => {
        await control(running.url, 'POST', '/reset')
        await answered(running.url)
      },
    },
    {
      name: 'PUT /__patkit/state, then a request',
      fn: async () => {
        await control(running.url, 'PUT', '/state', snapshot)
        await answered(running.url)
      },
    },
  ],
  rounds: config.rounds,
  timeMs: config.timeMs,
  warmupMs: config.warmupMs,
})
running.child.kill('SIGTERM')

const [restart, reset, restore] = result.contenders
if (restart === undefined || reset === undefined || restore === undefined) throw new Error('missing result')
const title = (/** @type {string} */ what) =>
  `fake authority: ${what} vs a restart of patkit serve (spawn to first answered request), examples/seed.json`
/** @param {string} id @param {string} what @param {{ name: string, opsPerSec: number }} subject @param {number} ratio */
const target = (id, what, subject, ratio) => ({
  id,
  title: title(what),
  baseline: { name: 'restart', value: restart.opsPerSec, unit: 'per s' },
  subject: { name: subject.name, value: subject.opsPerSec, unit: 'per s' },
  ratio,
  ratioLabel: 'subject / restart operations per second',
  direction: /** @type {const} */ ('min'),
  threshold: THRESHOLD,
  pass: ratio >= THRESHOLD,
  note: `each side includes one answered GET ${SELF}; a restart costs ${(1000 / restart.opsPerSec).toFixed(0)} ms, a ${id === '8' ? 'reset' : 'restore'} ${(1000 / subject.opsPerSec).toFixed(2)} ms (medians)`,
})

finish({
  targets: [
    target('8', 'POST /__patkit/reset', reset, result.ratios[1] ?? Number.NaN),
    target('8b', 'PUT /__patkit/state (restore a snapshot)', restore, result.ratios[2] ?? Number.NaN),
  ],
})
