/**
 * Target 14d: `GET /api/v4/personal_access_tokens/self` req/s of 3 `patkit serve --cache` processes on
 * one PostgreSQL against 1. autocannon (in this process) loads the single server, or the 3 at once
 * (one autocannon per server, the same connections each), in alternating runs; the ratio is the median
 * of the per-run ratios of total requests per second. On a machine with fewer cores than 3 servers plus
 * the load generator plus PostgreSQL, the figure measures the cores, not the scaling: see the note.
 * Skipped, with the reason, when PostgreSQL cannot be reached.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import pg from 'pg'
import { median } from '../lib/compare.mjs'
import { dropPostgres } from '../lib/sql-population.mjs'
import { finish, progress, settings } from '../lib/suite.mjs'

const config = settings()
const CONNECTIONS = 10
const TOKENS = 64
const PATH = '/api/v4/personal_access_tokens/self'
const PREFIX = 'bench_scale_'
const URL = process.env['PATKIT_POSTGRES_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test'
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const TITLE = `HTTP GET ${PATH}: 3 patkit serve --cache processes on one PostgreSQL vs 1`

const pool = new pg.Pool({ connectionString: URL, max: 1, connectionTimeoutMillis: 3000 })
/** @type {Parameters<typeof finish>[0] | undefined} */
let outcome
try {
  await pool.query('select 1')
} catch (error) {
  await pool.end().catch(() => {})
  finish({
    targets: [],
    skipped: [{ id: '14d', title: TITLE, reason: `PostgreSQL unreachable at ${URL}: ${String(error)}` }],
  })
  await new Promise(() => {})
}
await dropPostgres(pool, PREFIX)

const dir = mkdtempSync(join(tmpdir(), 'patkit-bench-scale-'))
const secretOf = (/** @type {number} */ k) => `glpat-scale-bench-${String(k).padStart(4, '0')}`
const seed = join(dir, 'seed.json')
writeFileSync(
  seed,
  JSON.stringify({
    users: [{ id: 2, username: 'alice' }],
    tokens: Array.from({ length: TOKENS }, (_, k) => ({
      user_id: 2,
      name: `t${k}`,
      scopes: ['api'],
      token: secretOf(k),
      expires_at: '2099-01-01',
    })),
  }),
)

/** @type {import('node:child_process').ChildProcess[]} */
const servers = []
/** Starts one `patkit serve --cache` and resolves with its port. */
function serve() {
  const child = spawn(
    process.execPath,
    [
      join(root, 'dist', 'cli.js'),
      'serve',
      '--port',
      '0',
      '--no-control',
      '--database',
      URL,
      '--table-prefix',
      PREFIX,
      '--pepper',
      'patkit-benchmark-pepper',
      '--seed',
      seed,
      '--cache',
      '--daemon',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  servers.push(child)
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: /** @type {import('node:stream').Readable} */ (child.stdout) })
    lines.once('line', (line) => {
      const match = /listening on http:\/\/[^:]+:(\d+)/.exec(line)
      if (match === null) reject(new Error(`unexpected first line: ${line}`))
      else resolve(Number(match[1]))
      lines.on('line', () => {})
    })
    child.once('exit', (code) => reject(new Error(`patkit serve exited with ${code}`)))
  })
}

const ports = /** @type {number[]} */ ([await serve()])
ports.push(/** @type {number} */ (await serve()), /** @type {number} */ (await serve()))
progress(`cache-scale: 3 servers on ports ${ports.join(', ')}`)

/** One autocannon run against one port; requests per second of 200s, or an error. @param {number} port @param {number} seconds */
async function load(port, seconds) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    duration: seconds,
    requests: Array.from({ length: TOKENS }, (_, k) => ({
      method: 'GET',
      path: PATH,
      headers: { 'private-token': secretOf(k) },
    })),
  })
  if (result.non2xx > 0 || result.errors > 0 || result['2xx'] === 0) {
    throw new Error(`port ${port}: ${result.non2xx} non-2xx, ${result.errors} errors`)
  }
  return result['2xx'] / seconds
}

try {
  for (const port of ports) await load(port, 1) // warm: JIT, pools, every token cached
  /** @type {number[]} */ const single = []
  /** @type {number[]} */ const triple = []
  /** @type {number[]} */ const ratios = []
  for (let run = 0; run < config.httpRuns; run++) {
    const one = async () =>
      single.push(await load(/** @type {number} */ (ports[run % 3]), config.httpSeconds))
    const three = async () => {
      const each = await Promise.all(ports.map((port) => load(port, config.httpSeconds)))
      triple.push(each.reduce((a, b) => a + b, 0))
    }
    if (run % 2 === 0) {
      await one()
      await three()
    } else {
      await three()
      await one()
    }
    ratios.push(/** @type {number} */ (triple.at(-1)) / /** @type {number} */ (single.at(-1)))
  }
  const ratio = median(ratios)
  outcome = {
    targets: [
      {
        id: '14d',
        title: `${TITLE} (autocannon, ${CONNECTIONS} connections per server, ${config.httpRuns} × ${config.httpSeconds} s)`,
        baseline: { name: '1 process', value: median(single), unit: 'req/s' },
        subject: { name: '3 processes', value: median(triple), unit: 'req/s' },
        ratio,
        ratioLabel: 'subject / baseline requests per second',
        direction: 'min',
        threshold: 2.2,
        pass: ratio >= 2.2,
        spread: ratios,
        note: `${cpus().length} cores for the servers, autocannon and PostgreSQL together: 3 servers can add throughput only with spare cores; every request is a cache hit`,
      },
    ],
  }
} finally {
  for (const child of servers) child.kill('SIGTERM')
  await dropPostgres(pool, PREFIX).catch(() => {})
  rmSync(dir, { recursive: true, force: true })
}
// finish() exits the process: the clean-up above must run first.
finish(outcome)
