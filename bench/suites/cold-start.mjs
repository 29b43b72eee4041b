/**
 * Target 9: the cold start of the root entry point. The baseline is a bare Node start,
 * `node -e 0`; against it, `node -e "import('patkit')"`: the same start plus resolving the package by
 * its name (dist/, what users run) and evaluating every module the root entry loads. Each side is a
 * fresh process, timed from spawn to exit; the two alternate (baseline first in even rounds, patkit
 * first in odd ones), and the ratio is the median of the per-round ratios of the median times, so a
 * slow phase of the machine hits both sides alike.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { median } from '../lib/compare.mjs'
import { finish, progress, settings } from '../lib/suite.mjs'

const config = settings()
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const THRESHOLD = 2
/** Processes per side per round. */
const PER_ROUND = config.quick ? 4 : 6

/** Milliseconds from spawn to exit of `node -e CODE`, run in the package root (so `patkit` resolves). */
function timed(/** @type {string} */ code) {
  const started = performance.now()
  const run = spawnSync(process.execPath, ['-e', code], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] })
  const ms = performance.now() - started
  if (run.status !== 0) throw new Error(`node -e ${code} exited with ${run.status}: ${run.stderr}`)
  return ms
}

const BARE = '0'
const IMPORT = "import('patkit')"

/**
 * The packages and built-in modules the root entry loads, following dist/index.js's static imports
 * through its chunks: what its cold start is made of besides patkit's own code.
 */
function externalsOfRoot() {
  const seen = new Set()
  const externals = new Set()
  let bytes = 0
  const visit = (/** @type {string} */ file) => {
    if (seen.has(file)) return
    seen.add(file)
    const text = readFileSync(file, 'utf8')
    bytes += text.length
    for (const m of text.matchAll(
      /(?:^|\n)(?:import|export)\s[^;]*?from\s*['"]([^'"]+)['"]|(?:^|\n)import\s*['"]([^'"]+)['"]/g,
    )) {
      const specifier = m[1] ?? m[2] ?? ''
      if (specifier.startsWith('.')) visit(join(dirname(file), specifier))
      else
        externals.add(
          specifier.startsWith('node:') ? specifier : specifier.replace(/^crypto$/, 'node:crypto'),
        )
    }
  }
  visit(join(root, 'dist', 'index.js'))
  return { files: seen.size, bytes, externals: [...externals].sort() }
}

// Warm the file cache for both sides (the first start after a build reads from disk).
timed(BARE)
timed(IMPORT)

/** @type {number[]} */ const bare = []
/** @type {number[]} */ const imported = []
/** @type {number[]} */ const ratios = []
for (let round = 0; round < config.rounds; round++) {
  /** @type {number[]} */ const b = []
  /** @type {number[]} */ const p = []
  for (let i = 0; i < PER_ROUND; i++) {
    if ((round + i) % 2 === 0) {
      b.push(timed(BARE))
      p.push(timed(IMPORT))
    } else {
      p.push(timed(IMPORT))
      b.push(timed(BARE))
    }
  }
  bare.push(...b)
  imported.push(...p)
  ratios.push(median(p) / median(b))
  progress(
    `cold start round ${round + 1}: node -e 0 ${median(b).toFixed(1)} ms, import('patkit') ${median(p).toFixed(1)} ms`,
  )
}

const ratio = median(ratios)
const loads = externalsOfRoot()
finish({
  targets: [
    {
      id: '9',
      title: `cold start: node -e "import('patkit')" vs node -e 0 (spawn to exit, ${bare.length} processes each)`,
      baseline: { name: 'node -e 0', value: median(bare), unit: 'ms' },
      subject: { name: "import('patkit')", value: median(imported), unit: 'ms' },
      ratio,
      ratioLabel: 'subject time / baseline time',
      direction: 'max',
      threshold: THRESHOLD,
      pass: ratio <= THRESHOLD,
      spread: ratios,
      note: `the root entry loads ${loads.files} files of dist/ (${Math.round(loads.bytes / 1024)} KiB) and ${loads.externals.join(', ')}; import('patkit') adds ${(median(imported) - median(bare)).toFixed(0)} ms to a bare start (medians)`,
    },
  ],
  details: { coldStart: { bareMs: bare, importMs: imported, ratios, rootLoads: loads } },
})
