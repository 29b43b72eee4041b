import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The JSON report feeds the one-line summary .ci/run prints; it is written on every run so CI and
    // developers run the very same command.
    reporters: ['default', ['json', { outputFile: 'test-results.json' }]],
  },
})
