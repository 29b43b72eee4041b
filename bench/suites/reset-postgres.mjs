/**
 * Target 23 on PostgreSQL at PATKIT_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/test):
 * how a test suite gets fresh data between tests from a `patkit serve --database` on PostgreSQL.
 *
 * - baseline, a restart: spawn `node dist/cli.js serve --port 0 --database URL --seed
 *   examples/seed.json` (tables `bench23_*`, migrated already, so as a suite restarting it meets
 *   them), read the first stdout line, get one answered request (GET
 *   /api/v4/personal_access_tokens/self, 200), then SIGKILL the process (not waited for, which only
 *   flatters the restart);
 * - 23, reset: `POST /__patkit/reset` (with the control token `--database` requires) on a running
 *   `patkit serve` with the same arguments and `--cache`, then the same answered request: one
 *   transaction deleting the prefix's rows and writing the start data, and a flush-all on the
 *   cache's channel.
 *
 * Measured in rounds with a rotating order (alternateMany); the ratio is resets per second over
 * restarts per second in the same round, median over the rounds. Skipped, with the reason, when the
 * server cannot be reached; the tables are dropped afterwards.
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { alternateMany } from '../lib/compare.mjs'
import { finish, progress, settings } from '../lib/suite.mjs'

const config = settings()
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const CLI = join(root, 'dist', 'cli.js')
const SEED_FILE = join(root, 'examples', 'seed.json')
const SELF = '/api/v4/personal_access_tokens/self'
const URL = process.env['PATKIT_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test'
const PREFIX = 'bench23_'
const PEPPER = 'bench-23-pepper-long-enough-for-patkit-serve-0123456789'
const CONTROL = 'bench-23-control-token'
const TABLES = [
  'tokens',
  'users',
  'settings',
  'rotation_receipts',
  'cache_changes',
  'groups',
  'projects',
  'members',
  'hooks',
  'hook_logs',
  'token_notices',
  'audit_events',
  'migrations',
  'migrations_lock',
].map((t) => PREFIX + t)
/** Bound of a start: a server that needs longer is broken, not slow. */
const START_TIMEOUT_MS = 20_000
const THRESHOLD = 20
const TITLE =
  'patkit serve --database on PostgreSQL: POST /__patkit/reset vs a restart of patkit serve (spawn to first answered request), examples/seed.json'

/** @type {{ tokens: { token?: string, user_id: number }[] }} */
const seed = JSON.parse(readFileSync(SEED_FILE, 'utf8'))
const secret = seed.tokens.find((t) => t.token !== undefined && t.user_id === 1)?.token
if (secret === undefined) throw new Error(`${SEED_FILE} has no token of user 1 with a known secret`)

const pool = new pg.Pool({ connectionString: URL, max: 1, connectionTimeoutMillis: 3000 })
try {
  await pool.query('select 1')
} catch (error) {
  await pool.end().catch(() => {})
  finish({
    targets: [],
    skipped: [
      {
        id: '23',
        title: TITLE,
        reason: `PostgreSQL unreachable at ${URL}: ${error instanceof Error ? error.message : String(error)}`,
      },
    ],
  })
  await new Promise(() => {})
}
const drop = async () => {
  for (const table of TABLES) await pool.query(`drop table if exists ${table}`)
}

const ARGS = [
  'serve',
  '--port',
  '0',
  '--database',
  URL,
  '--table-prefix',
  PREFIX,
  '--pepper',
  PEPPER,
  '--seed',
  SEED_FILE,
  '--control-token',
  CONTROL,
]

/**
 * Starts `patkit serve`; resolves with the child and its URL from the first line. stdin is a pipe:
 * the server also exits when this process does, however it ends.
 * @param {readonly string[]} extra
 */
function start(extra = []) {
  const child = spawn(process.execPath, [CLI, ...ARGS, ...extra], {
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

/** @param {string} url */
async function reset(url) {
  const response = await fetch(`${url}/__patkit/reset`, {
    method: 'POST',
    headers: { 'x-patkit-control-token': CONTROL },
  })
  const text = await response.text()
  if (response.status !== 200) throw new Error(`POST /__patkit/reset: ${response.status} ${text}`)
}

/** @type {Parameters<typeof finish>[0] | undefined} */
let outcome
try {
  await drop()
  const running = await start(['--cache'])
  await answered(running.url)
  progress(`reset-postgres: a running patkit serve --database at ${running.url}`)
  try {
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
            await reset(running.url)
            await answered(running.url)
          },
        },
      ],
      rounds: config.rounds,
      timeMs: config.timeMs,
      warmupMs: config.warmupMs,
    })
    const [restart, resetting] = result.contenders
    if (restart === undefined || resetting === undefined) throw new Error('missing result')
    const ratio = result.ratios[1] ?? Number.NaN
    outcome = {
      targets: [
        {
          id: '23',
          title: TITLE,
          baseline: { name: 'restart', value: restart.opsPerSec, unit: 'per s' },
          subject: { name: resetting.name, value: resetting.opsPerSec, unit: 'per s' },
          ratio,
          ratioLabel: 'reset / restart operations per second',
          direction: /** @type {const} */ ('min'),
          threshold: THRESHOLD,
          pass: ratio >= THRESHOLD,
          note: `each side includes one answered GET ${SELF}; a restart costs ${(1000 / restart.opsPerSec).toFixed(0)} ms, a reset ${(1000 / resetting.opsPerSec).toFixed(2)} ms (medians)`,
        },
      ],
    }
  } finally {
    running.child.kill('SIGTERM')
    await new Promise((resolve) => running.child.once('exit', resolve))
  }
} finally {
  await drop().catch(() => {})
  await pool.end().catch(() => {})
}
finish(outcome ?? { targets: [], failed: [{ suite: 'reset-postgres', reason: 'no outcome' }] })
