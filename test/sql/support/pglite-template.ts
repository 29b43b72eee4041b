import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'

// A new PGlite runs initdb in WebAssembly: about 3 s of CPU, and the suite opens a dozen. vitest's
// global setup (vitest.config.ts) dumps one fresh data directory once per PGlite version; every
// PGlite of the tests starts from that copy instead, in a quarter of the time, as the same database.

const root = join(import.meta.dirname, '..', '..', '..')
const version = (
  JSON.parse(readFileSync(join(root, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')) as {
    version: string
  }
).version
const path = join(root, 'node_modules', '.cache', 'patkit-test', `pglite-${version}-datadir.tar.gz`)

let template: Blob | undefined

/** Options for a new PGlite: the fresh data directory the global setup dumped, when there is one. */
export function pgliteOptions(): { loadDataDir?: Blob } {
  if (template === undefined && existsSync(path)) template = new Blob([readFileSync(path)])
  return template === undefined ? {} : { loadDataDir: template }
}

/** vitest global setup: dumps a fresh PGlite's data directory unless this version's is there. */
export async function setup(): Promise<void> {
  if (existsSync(path)) return
  const fresh = new PGlite()
  const dump = await fresh.dumpDataDir('gzip')
  await fresh.close()
  mkdirSync(dirname(path), { recursive: true })
  // Written aside and renamed, so a run starting at the same moment never reads half a file.
  const partial = `${path}.${process.pid}.partial`
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()))
  renameSync(partial, path)
}
