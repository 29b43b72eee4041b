/**
 * The result table, as text for the terminal and as Markdown for docs/benchmarks.md.
 */

/** @param {number} value */
function figure(value) {
  if (!Number.isFinite(value)) return String(value)
  if (value >= 100) return Math.round(value).toLocaleString('en')
  if (value >= 10) return value.toFixed(1)
  return value.toFixed(2)
}

/** @param {number} value */
function ratio(value) {
  if (!Number.isFinite(value)) return String(value)
  return value >= 100 ? `${Math.round(value).toLocaleString('en')}` : value.toFixed(2)
}

/**
 * @typedef {object} Report
 * @property {import('./suite.mjs').Target[]} targets
 * @property {{ id: string, title: string, reason: string }[]} skipped
 * @property {{ suite: string, reason: string }[]} failed
 * @property {string} mode
 * @property {string} date
 * @property {string | null} commit
 * @property {number} seconds
 * @property {{ cpu: string, cores: number, memoryGiB: number, os: string, node: string }} machine
 * @property {import('./suite.mjs').Settings} settings
 */

/** @param {import('./suite.mjs').Target} t */
function cells(t) {
  const side = (/** @type {{ name: string, value: number, unit: string } | null} */ s) =>
    s === null ? '—' : `${s.name}: ${figure(s.value)} ${s.unit}`
  return [
    t.id,
    t.title,
    side(t.baseline),
    side(t.subject),
    ratio(t.ratio),
    `${t.direction === 'min' ? '≥' : '≤'} ${t.threshold}`,
    t.pass ? 'PASS' : 'FAIL',
  ]
}

const HEADERS = ['#', 'target', 'baseline', 'patkit', 'ratio', 'needed', 'result']

/** @param {Report} report */
export function renderText(report) {
  const rows = [HEADERS, ...report.targets.map(cells)]
  const widths = HEADERS.map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)))
  const lines = rows.map((r) => r.map((cell, c) => String(cell).padEnd(widths[c] ?? 0)).join('  '))
  lines.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  '))
  for (const s of report.skipped) lines.push(`${s.id}  SKIPPED  ${s.title}: ${s.reason}`)
  for (const f of report.failed) lines.push(`suite ${f.suite} FAILED: ${f.reason}`)
  for (const t of report.targets) if (t.note !== undefined) lines.push(`note ${t.id}: ${t.note}`)
  return lines.join('\n')
}

/** @param {string} text */
function escapeCell(text) {
  return text.replaceAll('|', '\\|')
}

/** @param {Report} report */
export function renderMarkdown(report) {
  const m = report.machine
  const lines = [
    `Run of ${report.date.slice(0, 16).replace('T', ' ')} UTC (${report.mode}, commit ${report.commit ?? 'unknown'}, ${report.settings.n.toLocaleString('en')} tokens, ${report.seconds} s) on ${m.cores} × ${m.cpu}, ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}.`,
    '',
    `| ${HEADERS.join(' | ')} |`,
    `| ${HEADERS.map((h) => (h === 'ratio' ? '---:' : '---')).join(' | ')} |`,
    ...report.targets.map(
      (t) =>
        `| ${cells(t)
          .map((c) => escapeCell(String(c)))
          .join(' | ')} |`,
    ),
  ]
  for (const s of report.skipped)
    lines.push(`| ${s.id} | ${escapeCell(s.title)} | — | — | — | — | SKIPPED: ${escapeCell(s.reason)} |`)
  for (const f of report.failed)
    lines.push(`| — | suite ${f.suite} | — | — | — | — | FAILED: ${escapeCell(f.reason)} |`)
  const notes = report.targets.filter((t) => t.note !== undefined)
  if (notes.length > 0) {
    lines.push('')
    for (const t of notes) lines.push(`- ${t.id}: ${t.note}`)
  }
  return lines.join('\n')
}

/**
 * The EXPLAIN output the SQL suites recorded (the statements patkit issued, with their plans), as
 * Markdown.
 * @param {{ details: Record<string, { explain?: Record<string, string[]> }> }} report
 */
export function renderExplain(report) {
  const lines = []
  for (const [suite, label, command] of [
    ['postgres', 'PostgreSQL', 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)'],
    ['sqlite', 'SQLite', 'EXPLAIN QUERY PLAN'],
  ]) {
    const explain = report.details[suite]?.explain
    if (explain === undefined) {
      lines.push(`${label}: not measured in this run.`, '')
      continue
    }
    for (const [operation, statements] of Object.entries(explain)) {
      lines.push(
        `${label}, ${operation === 'list' ? "a user's list" : operation} (\`${command}\`):`,
        '',
        '```text',
      )
      lines.push(statements.join('\n\n'), '```', '')
    }
  }
  return lines.join('\n').trimEnd()
}
