import { Bench } from 'tinybench'

/**
 * @typedef {object} Contender
 * @property {string} name What is measured, as the table shows it.
 * @property {() => unknown} fn One operation (sync or async).
 * @property {number} [batch] Operations per call of `fn`; 1 unless `fn` loops itself.
 * @property {number} [minCalls] Fewest calls per measurement (default 8): lower it for slow operations.
 */

/**
 * @typedef {object} Comparison
 * @property {{ name: string, opsPerSec: number }} baseline Median ops/s of the baseline over the rounds.
 * @property {{ name: string, opsPerSec: number }} subject Median ops/s of the subject over the rounds.
 * @property {number} ratio Median over the rounds of subject ops/s / baseline ops/s (same round).
 * @property {number[]} ratios Every round's ratio, for the spread.
 * @property {number} rounds
 */

/** @param {number[]} values */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? /** @type {number} */ (sorted[mid])
    : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2
}

/**
 * Measures one contender once with tinybench: `timeMs` of calls after `warmupMs` of warm-up.
 * Returns operations per second from the mean period (total time / calls), times the batch.
 *
 * Each tinybench sample is one call of `fn`; a `batch` above 1 amortizes tinybench's own per-call
 * timing cost when one operation takes well under a microsecond.
 *
 * @param {Contender} contender
 * @param {{ timeMs: number, warmupMs: number }} timing
 */
export async function opsPerSecond(contender, { timeMs, warmupMs }) {
  const calls = contender.minCalls ?? 8
  const bench = new Bench({ time: timeMs, warmupTime: warmupMs, iterations: calls, warmupIterations: calls })
  bench.add(contender.name, contender.fn)
  await bench.run()
  const task = bench.tasks[0]
  const result = task?.result
  if (result === undefined || !('period' in result)) {
    const error = result !== undefined && 'error' in result ? result.error : undefined
    throw new Error(`${contender.name}: no result`, { cause: error })
  }
  return ((contender.batch ?? 1) * 1000) / result.period
}

/**
 * Baseline and subject measured in alternating rounds (baseline first in even rounds, subject first
 * in odd ones), so a slow phase of a noisy machine hits both alike. The ratio is the median of the
 * per-round ratios; each side's ops/s is its median over the rounds.
 *
 * @param {{ baseline: Contender, subject: Contender, rounds: number, timeMs: number, warmupMs: number }} options
 * @returns {Promise<Comparison>}
 */
export async function alternate({ baseline, subject, rounds, timeMs, warmupMs }) {
  // One longer warm-up of each, so the first round does not measure the JIT at work.
  await opsPerSecond(baseline, { timeMs: warmupMs, warmupMs })
  await opsPerSecond(subject, { timeMs: warmupMs, warmupMs })
  /** @type {number[]} */ const baseOps = []
  /** @type {number[]} */ const subjectOps = []
  /** @type {number[]} */ const ratios = []
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [baseline, subject] : [subject, baseline]
    /** @type {Map<Contender, number>} */ const ops = new Map()
    for (const contender of order) {
      ops.set(contender, await opsPerSecond(contender, { timeMs, warmupMs: Math.min(warmupMs, 100) }))
    }
    const b = ops.get(baseline) ?? Number.NaN
    const s = ops.get(subject) ?? Number.NaN
    baseOps.push(b)
    subjectOps.push(s)
    ratios.push(s / b)
  }
  return {
    baseline: { name: baseline.name, opsPerSec: median(baseOps) },
    subject: { name: subject.name, opsPerSec: median(subjectOps) },
    ratio: median(ratios),
    ratios,
    rounds,
  }
}

/**
 * @typedef {object} ManyComparison
 * @property {{ name: string, opsPerSec: number }[]} contenders Median ops/s of each, in the given order.
 * @property {number[]} ratios Per contender: the median over the rounds of its ops/s over the first
 *   contender's ops/s in the same round (1 for the first).
 * @property {number[][]} rounds Per contender: those per-round ratios.
 */

/**
 * Several contenders measured in rounds, the order rotating each round; the first is the baseline of
 * every ratio.
 * @param {{ contenders: Contender[], rounds: number, timeMs: number, warmupMs: number }} options
 * @returns {Promise<ManyComparison>}
 */
export async function alternateMany({ contenders, rounds, timeMs, warmupMs }) {
  for (const contender of contenders) await opsPerSecond(contender, { timeMs: warmupMs, warmupMs })
  /** @type {number[][]} */ const ops = contenders.map(() => [])
  /** @type {number[][]} */ const ratios = contenders.map(() => [])
  for (let round = 0; round < rounds; round++) {
    /** @type {number[]} */ const measured = []
    for (let k = 0; k < contenders.length; k++) {
      const index = (k + round) % contenders.length
      const contender = /** @type {Contender} */ (contenders[index])
      measured[index] = await opsPerSecond(contender, { timeMs, warmupMs: Math.min(warmupMs, 100) })
    }
    const base = measured[0] ?? Number.NaN
    measured.forEach((value, index) => {
      ops[index]?.push(value)
      ratios[index]?.push(value / base)
    })
  }
  return {
    contenders: contenders.map((c, index) => ({ name: c.name, opsPerSec: median(ops[index] ?? []) })),
    ratios: ratios.map((r) => median(r)),
    rounds: ratios,
  }
}
