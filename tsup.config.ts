import { join } from 'node:path'
import type { Plugin } from 'esbuild'
import { defineConfig, type Options } from 'tsup'

// tsup 8 passes `baseUrl` to the declaration build, which TypeScript 6 deprecates; the flag only
// silences that notice for the .d.ts pass (TypeScript 7's native compiler has no JS API tsup can use).
const dts = { compilerOptions: { ignoreDeprecations: '6.0' } }

// `npm run build` writes declarations (a minute on 2 cores: one TypeScript program per format);
// `npm start` and `npm test` build with `--no-dts` (seconds) and keep the declarations already in
// dist/, so a full build's .d.ts files survive for `npm run check:package` and the slow tests.
const KEEP_DECLARATIONS = '!**/*.d.{ts,cts,mts}'

// Entries mirror the `exports` map in package.json: one entry per public subpath.
const requirable = {
  index: 'src/index.ts',
  // The authority's option and request types, defaults and expiry notices; releases and deprecations.
  authority: 'src/authority/index.ts',
  releases: 'src/releases/index.ts',
  memory: 'src/memory/index.ts',
  sql: 'src/sql/index.ts',
  http: 'src/http/index.ts',
  // node:http, and one small guard per framework (each an optional peer dependency, never bundled).
  node: 'src/node/index.ts',
  express: 'src/express/index.ts',
  fastify: 'src/fastify/index.ts',
  hono: 'src/hono/index.ts',
  next: 'src/next/index.ts',
  store: 'src/store/index.ts',
  cache: 'src/cache/index.ts',
  // The fake authority without the conformance suite: no vitest, so ESM and CJS.
  fake: 'src/fake/index.ts',
  // GitLab's expiry webhooks (payload, headers, delivery) and the signed sender for embedders.
  webhooks: 'src/webhooks/index.ts',
}

// The library's two imports of src/domain/node-crypto.ts become the package import `#node-crypto`,
// which package.json "imports" maps by condition: "node" to the lookup of node:crypto (the fast HMAC),
// edge runtimes, workers and browsers to node-crypto-absent.ts (the HMAC in JavaScript). Next.js's edge
// sandbox throws on the lookup itself, so an edge bundle must not contain it at all.
const NODE_CRYPTO = join(import.meta.dirname, 'src', 'domain', 'node-crypto')
const nodeCryptoByCondition: Plugin = {
  name: 'node-crypto-by-condition',
  setup(build) {
    build.onResolve({ filter: /\/node-crypto\.js$/ }, (args) =>
      args.kind !== 'entry-point' && join(args.resolveDir, args.path.replace(/\.js$/, '')) === NODE_CRYPTO
        ? { path: '#node-crypto', external: true }
        : undefined,
    )
  },
}

// No source maps: they would point at src/, which the package does not ship (1.5 MB of maps for
// nothing). The output is not minified, so stack traces name the real functions in readable files.
const library: Options = {
  dts,
  target: 'node20',
  platform: 'node',
  splitting: true,
  treeshake: true,
  external: ['vitest', 'express', 'fastify', 'hono', 'next'],
  // The fake finds the dashboard's assets (dist/dashboard) from import.meta.url, which the CJS build
  // gets from this shim.
  shims: true,
  esbuildPlugins: [nodeCryptoByCondition],
}

export default defineConfig([
  {
    ...library,
    // Every ESM entry in one build, so they share chunks: a class such as AuthorityConfigError is one
    // class whichever entry point (patkit, patkit/testing, ...) a program reaches it through, and
    // `instanceof` works across them.
    entry: {
      ...requirable,
      // ESM only (it imports vitest, which cannot be required), so it has no CJS build below.
      testing: 'src/testing/index.ts',
    },
    format: ['esm'],
    // The builds run at once: each cleans only what it writes (tsup keeps declarations here and
    // its declaration pass clears them at its start, long before either declaration pass writes).
    clean: ['!**/*.cjs', '!cli.js', '!runtime/**', KEEP_DECLARATIONS],
  },
  {
    // The same entries but `testing`, for `require`: their chunks are shared among the CJS entries.
    ...library,
    entry: requirable,
    format: ['cjs'],
    clean: ['!**/*.js', '!runtime/**', KEEP_DECLARATIONS],
  },
  {
    // The two targets of `#node-crypto` (package.json "imports"), ESM and CJS, in dist/runtime/.
    entry: {
      'node-crypto': 'src/domain/node-crypto.ts',
      'node-crypto-absent': 'src/domain/node-crypto-absent.ts',
    },
    outDir: 'dist/runtime',
    format: ['esm', 'cjs'],
    target: 'node20',
    platform: 'neutral',
    clean: true,
  },
  {
    // The `patkit` bin: ESM only, no declarations.
    entry: { cli: 'src/cli/main.ts' },
    format: ['esm'],
    target: 'node20',
    platform: 'node',
  },
])
