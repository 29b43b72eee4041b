// Bundles the dashboard (src/fake/dashboard/ui) into dist/dashboard: index.html, dashboard.js and
// dashboard.css, served by the fake at /__patkit/. preact and htm are bundled in; nothing comes from a
// CDN at run time. `npm run build` runs it after tsup; test/browser runs it before starting chromium.
import { copyFile, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const root = join(fileURLToPath(import.meta.url), '..', '..')
const ui = join(root, 'src', 'fake', 'dashboard', 'ui')

/** Writes the three assets into `outDir` (default dist/dashboard) and answers the directory. */
export async function buildDashboard(outDir = join(root, 'dist', 'dashboard')) {
  await mkdir(outDir, { recursive: true })
  await build({
    entryPoints: [
      { in: join(ui, 'main.ts'), out: 'dashboard' },
      { in: join(ui, 'style.css'), out: 'dashboard' },
    ],
    outdir: outDir,
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    legalComments: 'none',
    logLevel: 'warning',
  })
  await copyFile(join(ui, 'index.html'), join(outDir, 'index.html'))
  return outDir
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildDashboard()
