/**
 * `npm run bench [-- --quick] [-- --only=authenticate,http]`: builds nothing itself (the npm script
 * builds dist/ first), runs every suite in its own child process, one after the other, prints the
 * table and writes bench/results/latest.json (a full run also refreshes the table in
 * docs/benchmarks.md). `--quick` runs smaller sizes and shorter rounds and writes
 * bench/results/quick.json instead; `--only` writes bench/results/partial.json, so a run of some
 * suites never replaces the committed full run.
 */
import { execFileSync, fork } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { cpus, freemem, release, totalmem } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { renderExplain, renderMarkdown, renderText } from './lib/table.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = dirname(here)
const args = process.argv.slice(2)
const quick = args.includes('--quick')
const only = args
  .find((a) => a.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',')

/** @type {import('./lib/suite.mjs').Settings} */
const config = quick
  ? { quick, n: 50_000, rounds: 5, timeMs: 200, warmupMs: 100, httpSeconds: 2, httpRuns: 2 }
  : { quick, n: 1_000_000, rounds: 7, timeMs: 400, warmupMs: 300, httpSeconds: 5, httpRuns: 3 }

/** Every suite, each run with --expose-gc (to settle the heap after populating, and for target 7). */
const SUITES = [
  { name: 'authenticate', file: 'authenticate.mjs' },
  { name: 'peer', file: 'peer.mjs' },
  { name: 'peer-postgres', file: 'peer-postgres.mjs' },
  { name: 'http', file: 'http.mjs' },
  { name: 'guard', file: 'guard.mjs' },
  { name: 'granular', file: 'granular.mjs' },
  { name: 'list', file: 'list.mjs' },
  { name: 'postgres', file: 'postgres.mjs' },
  { name: 'resources', file: 'resources.mjs' },
  { name: 'cache', file: 'cache.mjs' },
  { name: 'cache-propagation', file: 'cache-propagation.mjs' },
  { name: 'cache-scale', file: 'cache-scale.mjs' },
  { name: 'sqlite', file: 'sqlite.mjs' },
  { name: 'memory', file: 'memory.mjs' },
  { name: 'reset', file: 'reset.mjs' },
  { name: 'reset-postgres', file: 'reset-postgres.mjs' },
  { name: 'cold', file: 'cold-start.mjs' },
  { name: 'serve-cold', file: 'serve-cold-start.mjs' },
  { name: 'hook-deliveries', file: 'hook-deliveries.mjs' },
]

/**
 * Runs one suite in a fresh process and returns its result (or a failure row: one broken suite must
 * not hide the others).
 * @param {{ name: string, file: string }} suite
 * @returns {Promise<import('./lib/suite.mjs').SuiteResult & { seconds: number }>}
 */
function runSuite(suite) {
  const started = performance.now()
  return new Promise((resolve) => {
    /** @type {import('./lib/suite.mjs').SuiteResult | undefined} */
    let result
    const child = fork(join(here, 'suites', suite.file), [], {
      cwd: root,
      env: { ...process.env, PATKIT_BENCH: JSON.stringify(config) },
      execArgv: ['--max-old-space-size=8192', '--expose-gc'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    child.on('message', (message) => {
      result = /** @type {import('./lib/suite.mjs').SuiteResult} */ (message)
    })
    child.on('exit', (code, signal) => {
      const seconds = (performance.now() - started) / 1000
      resolve(
        result === undefined
          ? { targets: [], failed: [{ suite: suite.name, reason: `exited with ${code ?? signal}` }], seconds }
          : { ...result, seconds },
      )
    })
  })
}

function gitCommit() {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim()
  } catch {
    return null
  }
}

const runStarted = performance.now()
const machine = {
  cpu: cpus()[0]?.model ?? 'unknown',
  cores: cpus().length,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  freeMemoryGiB: Math.round(freemem() / 2 ** 30),
  os: `${process.platform} ${release()}`,
  node: process.version,
}
console.log(
  `patkit benchmarks (${quick ? 'quick' : 'full'}): ${config.n.toLocaleString('en')} tokens, ${machine.cores} × ${machine.cpu}, Node ${machine.node}`,
)

const suites = []
for (const suite of SUITES) {
  if (only !== undefined && !only.includes(suite.name)) continue
  console.log(`» ${suite.name}`)
  const result = await runSuite(suite)
  console.log(`  ${suite.name} done in ${result.seconds.toFixed(1)} s`)
  suites.push({ name: suite.name, ...result })
}

const report = {
  date: new Date().toISOString(),
  mode: quick ? 'quick' : 'full',
  commit: gitCommit(),
  settings: config,
  machine,
  seconds: Math.round((performance.now() - runStarted) / 100) / 10,
  targets: suites.flatMap((s) => s.targets).sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true })),
  skipped: suites.flatMap((s) => s.skipped ?? []),
  failed: suites.flatMap((s) => /** @type {{ failed?: unknown[] }} */ (s).failed ?? []),
  details: Object.fromEntries(suites.map((s) => [s.name, { seconds: s.seconds, ...(s.details ?? {}) }])),
}

console.log('')
console.log(renderText(report))
const out = join(here, 'results', quick ? 'quick.json' : only === undefined ? 'latest.json' : 'partial.json')
writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`)
console.log(`\nwrote ${out.slice(root.length + 1)} (${report.seconds} s)`)

/**
 * Replaces the text between `<!-- bench:NAME:start -->` and `<!-- bench:NAME:end -->`.
 * @param {string} text @param {string} name @param {string} content
 */
function between(text, name, content) {
  const start = `<!-- bench:${name}:start -->`
  const end = `<!-- bench:${name}:end -->`
  const from = text.indexOf(start)
  const to = text.indexOf(end)
  return from === -1 || to < from
    ? text
    : `${text.slice(0, from + start.length)}\n${content}\n${text.slice(to)}`
}

if (!quick && only === undefined) {
  // A full run refreshes the table and the EXPLAIN output in the docs; the prose around them stays.
  const docs = join(root, 'docs', 'benchmarks.md')
  try {
    const text = readFileSync(docs, 'utf8')
    writeFileSync(
      docs,
      between(between(text, 'table', renderMarkdown(report)), 'explain', renderExplain(report)),
    )
    console.log('refreshed the table and the EXPLAIN output in docs/benchmarks.md')
  } catch {
    // No docs in this checkout: the JSON is the result.
  }
}
if (report.failed.length > 0) process.exitCode = 1
