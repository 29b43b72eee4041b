/**
 * What a suite (one child process) receives and sends back. The runner forks every suite with IPC,
 * passes the run's settings in PATKIT_BENCH, and takes the first message as the suite's result.
 */

/**
 * @typedef {object} Settings
 * @property {boolean} quick Smaller sizes and shorter rounds.
 * @property {number} n Tokens in the store for the size-dependent targets.
 * @property {number} rounds Alternating rounds per comparison.
 * @property {number} timeMs Measuring time per contender per round.
 * @property {number} warmupMs Warm-up per contender.
 * @property {number} httpSeconds Duration of one autocannon run.
 * @property {number} httpRuns autocannon runs per server (alternating).
 */

/**
 * @typedef {object} Target
 * @property {string} id e.g. `1`, `5a`.
 * @property {string} title What is compared.
 * @property {{ name: string, value: number, unit: string }} baseline
 * @property {{ name: string, value: number, unit: string }} subject
 * @property {number} ratio The figure the threshold applies to.
 * @property {string} ratioLabel How the ratio is formed, e.g. `subject/baseline ops/s`.
 * @property {'min' | 'max'} direction `min`: ratio must be at least `threshold`; `max`: at most.
 * @property {number} threshold
 * @property {boolean} pass
 * @property {number[]} [spread] Per-round ratios.
 * @property {string} [note]
 */

/**
 * @typedef {object} SuiteResult
 * @property {Target[]} targets
 * @property {{ id: string, title: string, reason: string }[]} [skipped]
 * @property {Record<string, unknown>} [details] Extra measurements and EXPLAIN output.
 */

/** @returns {Settings} */
export function settings() {
  const raw = process.env['PATKIT_BENCH']
  if (raw === undefined) throw new Error('run the suites through bench/run.mjs')
  return JSON.parse(raw)
}

/**
 * A target row from a comparison.
 * @param {{ id: string, title: string, direction: 'min' | 'max', threshold: number, note?: string }} meta
 * @param {import('./compare.mjs').Comparison} comparison
 * @param {{ invert?: boolean, unit?: string }} [options] `invert`: the ratio is baseline/subject ops/s,
 *   i.e. subject cost over baseline cost.
 * @returns {Target}
 */
export function targetFrom(meta, comparison, options = {}) {
  const unit = options.unit ?? 'ops/s'
  const ratio = options.invert ? 1 / comparison.ratio : comparison.ratio
  const spread = comparison.ratios.map((r) => (options.invert ? 1 / r : r))
  return {
    id: meta.id,
    title: meta.title,
    baseline: { name: comparison.baseline.name, value: comparison.baseline.opsPerSec, unit },
    subject: { name: comparison.subject.name, value: comparison.subject.opsPerSec, unit },
    ratio,
    ratioLabel: options.invert ? 'subject cost / baseline cost' : 'subject / baseline throughput',
    direction: meta.direction,
    threshold: meta.threshold,
    pass: meta.direction === 'min' ? ratio >= meta.threshold : ratio <= meta.threshold,
    spread,
    ...(meta.note === undefined ? {} : { note: meta.note }),
  }
}

/**
 * Sends the suite's result to the runner and ends the process (open handles such as a database pool
 * must not keep a finished suite alive).
 * @param {SuiteResult} result
 */
export function finish(result) {
  if (process.send === undefined) {
    console.log(JSON.stringify(result, null, 2))
    process.exit(0)
  }
  process.send(result, () => process.exit(0))
}

/** Logs progress to stderr, which the runner passes through. @param {string} text */
export function progress(text) {
  process.stderr.write(`  ${text}\n`)
}
