import { defineConfig } from 'vitest/config'
import type { Reporter, TestCase } from 'vitest/node'

// Two commands, one config. `npm test` runs the project `fast`: every test file but the runs of
// clients in other languages, with the long races at a few rounds each. `npm run test:slow` runs the
// project `slow`: those client runs (python-gitlab, pytest, the Ruby gem, go-gitlab, `next build`,
// the dashboard in chromium), the checks of the declarations that only the full build writes,
// and the race files again at their full round counts (PATKIT_LONG_RACES=1, read by
// test/support/race-rounds.ts), and the project `specs-postgres`: the ported GitLab request specs again
// over a SQL store on PostgreSQL. CI runs both. `npx vitest run <path>` runs a file in every project
// that holds it; add `--project fast` or `--project slow` to pick one.

/**
 * Real clients built or run outside Node: seconds of CPU each, and tools a laptop may lack. Chromium
 * (test/browser) is one: the dashboard's browser tests.
 */
const CLIENT_RUNS = [
  'test/e2e/python-gitlab.test.ts',
  'test/e2e/python-gitlab-resource-tokens.test.ts',
  'test/e2e/python-gitlab-faults.test.ts',
  'test/e2e/python-gitlab-granular.test.ts',
  'test/e2e/ruby-gitlab-resource-tokens.test.ts',
  'test/e2e/ruby-gitlab.test.ts',
  'test/e2e/go-gitlab.test.ts',
  'test/e2e/go-gitlab-resource-tokens.test.ts',
  'test/e2e/rotation-bot.test.ts',
  'test/cli/reset-recipe.test.ts',
  'test/e2e/testing-docs.test.ts',
  'test/e2e/testing-docs-faults.test.ts',
  'test/next/next-build.test.ts',
  'test/browser/dashboard.test.ts',
]

/**
 * Checks of the declaration files (dist/*.d.ts), which only the full build writes (`npm run build`,
 * run by `pretest:slow` and by CI before `npm test`): `npm test` builds the JavaScript alone, in seconds.
 */
const DECLARATION_CHECKS = ['test/package/node-free.test.ts']

/** Files whose races run a few rounds in `fast` and their full count in `slow`. */
const LONG_RACES = [
  'test/sql/concurrency.test.ts',
  'test/cli/serve-cache.test.ts',
  'test/cli/serve-reset-storm.test.ts',
]

/** The share of its timeout a test may take before the run names it. */
const HEADROOM = 0.4

/**
 * Names every test that took more than HEADROOM of its timeout: such a test fails on a slower or
 * busier machine. Raise its timeout with the reason, or make it faster.
 */
class TimeoutHeadroom implements Reporter {
  private readonly near: string[] = []

  onTestCaseResult(test: TestCase): void {
    const duration = test.diagnostic()?.duration
    const timeout = test.options.timeout
    if (duration === undefined || timeout === undefined || timeout <= 0) return
    if (duration <= HEADROOM * timeout) return
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
    this.near.push(
      `  ${seconds(duration)} of ${seconds(timeout)}: ${test.module.relativeModuleId} > ${test.fullName}`,
    )
  }

  onTestRunEnd(): void {
    if (this.near.length === 0) return
    console.warn(
      `\n${this.near.length} test(s) took more than ${HEADROOM * 100}% of their timeout:\n${this.near.join('\n')}`,
    )
  }
}

export default defineConfig({
  test: {
    // One module graph per worker, not one per file: importing src and vitest again for every file
    // was a third of the suite's CPU. No test file mocks modules or changes globals.
    isolate: false,
    // Most files wait on a database, a child process or a socket: more workers than cores keep both
    // cores busy (vitest's default on 2 cores is 1 worker, every file one after the other).
    maxWorkers: 4,
    // Hooks start `patkit serve` processes and open and migrate databases: seconds on a busy machine,
    // and the bounded waits inside them (15 s, test/cli/support/cli-process.ts) must fire first.
    hookTimeout: 30_000,
    // A fresh PGlite data directory, dumped once, that every PGlite of the tests starts from.
    globalSetup: ['test/sql/support/pglite-template.ts'],
    // The JSON report feeds the one-line summary .ci/run prints; it is written on every run so CI and
    // developers run the very same command (`test:slow` writes test-results-slow.json instead).
    reporters: ['default', 'json', new TimeoutHeadroom()],
    outputFile: { json: 'test-results.json' },
    projects: [
      {
        extends: true,
        test: {
          name: 'fast',
          include: ['test/**/*.test.ts'],
          exclude: [...CLIENT_RUNS, ...DECLARATION_CHECKS],
        },
      },
      {
        extends: true,
        test: {
          name: 'slow',
          include: [...CLIENT_RUNS, ...DECLARATION_CHECKS, ...LONG_RACES],
          env: { PATKIT_LONG_RACES: '1' },
        },
      },
      {
        // GitLab's request specs, ported (test/e2e/gitlab-specs), again over a SQL store on PostgreSQL.
        extends: true,
        test: {
          name: 'specs-postgres',
          include: ['test/e2e/gitlab-specs/*.test.ts'],
          setupFiles: ['test/e2e/gitlab-specs/support/postgres-setup.ts'],
        },
      },
    ],
  },
})
