import { defineConfig } from 'tsup'

// tsup 8 passes `baseUrl` to the declaration build, which TypeScript 6 deprecates; the flag only
// silences that notice for the .d.ts pass (TypeScript 7's native compiler has no JS API tsup can use).
const dts = { compilerOptions: { ignoreDeprecations: '6.0' } }

export default defineConfig([
  {
    // Entries mirror the `exports` map in package.json: one entry per public subpath.
    entry: {
      index: 'src/index.ts',
      memory: 'src/memory/index.ts',
      sql: 'src/sql/index.ts',
      http: 'src/http/index.ts',
      // The fake authority without the conformance suite: no vitest, so ESM and CJS.
      fake: 'src/control/index.ts',
      // ESM only in the export map (it imports vitest, which cannot be required); built here so its
      // chunks are shared with `patkit` and `instanceof` works across the two entry points.
      testing: 'src/testing/index.ts',
    },
    format: ['esm', 'cjs'],
    dts,
    sourcemap: true,
    clean: true,
    target: 'node20',
    platform: 'node',
    splitting: true,
    treeshake: true,
    external: ['vitest'],
  },
  {
    // The `patkit` bin: ESM only, no declarations.
    entry: { cli: 'src/cli/main.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'node20',
    platform: 'node',
  },
])
