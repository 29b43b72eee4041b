import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, parse, sep } from 'node:path'
import { transform } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { markdownExamples } from '../docs/examples-typecheck.js'

// The README's edge example as a real Next.js app: a temporary App Router project whose routes say
// `export const runtime = 'edge'` and import the BUILT package (dist/, which `npm test` builds first)
// through node_modules/patkit -> this checkout, so package.json's "exports" and "imports" resolve as
// they do for an installed copy. `next build` (Turbopack, Next.js 16's default) must pass, and
// `next start` must answer the routes. The README block is read from README.md and the `withToken`
// block from docs/embedding.md, so what they show is what runs here.
//
// Without next, react and react-dom in node_modules the test is skipped with the reason, unless
// PATKIT_REQUIRE_E2E=1 or CI=true makes that a failure. The build gets no network: telemetry is off
// and the app uses no font or image that Next.js would fetch.

const root = join(import.meta.dirname, '..', '..')
const required = process.env['PATKIT_REQUIRE_E2E'] === '1' || process.env['CI'] === 'true'

/** Bounds of the waits below (a busy machine builds in well under a minute): beyond, it is broken. */
const BUILD_TIMEOUT_MS = 240_000
const START_TIMEOUT_MS = 60_000

// The secret the docs/embedding.md route is seeded with (the README block seeds its own).
const ALICE_SECRET = 'glpat-next-build-alice-01'

/** next, react and react-dom as this checkout has them, or why the test cannot run. */
function nextPackages(): { packages: Record<string, string>; bin: string } | { reason: string } {
  const require = createRequire(join(root, 'package.json'))
  const packages: Record<string, string> = {}
  for (const name of ['next', 'react', 'react-dom']) {
    try {
      packages[name] = dirname(require.resolve(`${name}/package.json`))
    } catch {
      return { reason: `${name} is not installed in node_modules (npm ci installs it)` }
    }
  }
  return { packages, bin: join(packages['next'] ?? '', 'dist', 'bin', 'next') }
}

/** The one ```ts block of `file` that contains `marker`. */
function block(file: string, marker: string): string {
  const found = markdownExamples(root, file).filter((example) => example.code.includes(marker))
  if (found.length !== 1) throw new Error(`${file}: ${found.length} ts blocks contain ${marker}, not 1`)
  return found[0]?.code ?? ''
}

/** TypeScript to JavaScript (types stripped, nothing else): a .ts route would make Next.js install
 * typescript and @types/react, which this checkout does not have, and that needs the network. */
async function javascript(typescript: string): Promise<string> {
  return (await transform(typescript, { loader: 'ts', target: 'es2022' })).code
}

/** The deepest directory holding every path given: Turbopack compiles nothing outside its root. */
function commonRoot(paths: string[]): string {
  const split = paths.map((p) => p.split(sep))
  const first = split[0] ?? []
  let length = 0
  while (length < first.length && split.every((parts) => parts[length] === first[length])) length++
  return first.slice(0, length).join(sep) || parse(first.join(sep)).root || sep
}

/** The temporary app: package.json, next.config.mjs, node_modules links and the two edge routes. */
async function writeApp(app: string, packages: Record<string, string>): Promise<void> {
  const modules = join(app, 'node_modules')
  mkdirSync(modules)
  for (const [name, dir] of Object.entries(packages)) symlinkSync(dir, join(modules, name), 'dir')
  symlinkSync(root, join(modules, 'patkit'), 'dir')
  writeFileSync(
    join(app, 'package.json'),
    '{ "name": "patkit-next-edge", "private": true, "type": "module" }\n',
  )
  const turbopackRoot = commonRoot([
    app,
    realpathSync(root),
    ...Object.values(packages).map((p) => realpathSync(p)),
  ])
  writeFileSync(
    join(app, 'next.config.mjs'),
    `export default { turbopack: { root: ${JSON.stringify(turbopackRoot)} } }\n`,
  )

  const gitlab = join(app, 'app', 'api', 'v4', '[...path]')
  mkdirSync(gitlab, { recursive: true })
  writeFileSync(join(gitlab, 'route.js'), await javascript(README_ROUTE))

  // docs/embedding.md's withToken block uses an `authority` made elsewhere: made here on the edge too.
  const me = join(app, 'app', 'me')
  mkdirSync(me, { recursive: true })
  const prelude = [
    "import { createAuthority } from 'patkit'",
    "import { memoryStore } from 'patkit/memory'",
    "export const runtime = 'edge'",
    "const store = memoryStore({ users: [{ id: 2, username: 'alice', admin: false, blocked: false }] })",
    "const authority = createAuthority({ store, pepper: 'next-build-test' })",
    `await authority.issueToken({ userId: 2, name: 'laptop', scopes: ['read_api'], secret: ${JSON.stringify(ALICE_SECRET)} })`,
  ].join('\n')
  writeFileSync(
    join(me, 'route.js'),
    await javascript(`${prelude}\n${block('docs/embedding.md', "from 'patkit/next'")}`),
  )
}

function nextEnv(): NodeJS.ProcessEnv {
  return { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NODE_ENV: 'production' }
}

/** Runs `next build`; resolves with its exit code and output. */
function build(bin: string, app: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'build'], { cwd: app, env: nextEnv(), detached: true })
    let output = ''
    child.stdout.on('data', (chunk) => {
      output += chunk
    })
    child.stderr.on('data', (chunk) => {
      output += chunk
    })
    const timer = setTimeout(() => {
      stop(child)
      reject(new Error(`next build did not finish in ${BUILD_TIMEOUT_MS} ms:\n${output}`))
    }, BUILD_TIMEOUT_MS)
    child.once('error', reject)
    child.once('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })
}

/** Starts `next start` on a free port; resolves with its origin once it is ready. */
function start(bin: string, app: string): { child: ChildProcess; origin: Promise<string> } {
  const child = spawn(process.execPath, [bin, 'start', '--port', '0', '--hostname', '127.0.0.1'], {
    cwd: app,
    env: nextEnv(),
    detached: true,
  })
  const origin = new Promise<string>((resolve, reject) => {
    let output = ''
    const timer = setTimeout(
      () => reject(new Error(`next start was not ready in ${START_TIMEOUT_MS} ms:\n${output}`)),
      START_TIMEOUT_MS,
    )
    const read = (chunk: Buffer) => {
      output += chunk
      const local = /Local:\s+(http:\/\/\S+)/.exec(output)?.[1]
      if (local !== undefined && /Ready in/.test(output)) {
        clearTimeout(timer)
        resolve(local)
      }
    }
    child.stdout?.on('data', read)
    child.stderr?.on('data', read)
    child.once('error', reject)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`next start exited (${code}):\n${output}`))
    })
  })
  return { child, origin }
}

/** Ends a child started here and whatever it started (its own process group). */
function stop(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return
  try {
    process.kill(-child.pid, 'SIGTERM')
  } catch {
    child.kill('SIGTERM')
  }
}

const found = nextPackages()
const README_ROUTE = block('README.md', "runtime = 'edge'")
// The secret the README block seeds its token with, which its text tells the reader to send.
const README_SECRET = /secret: '([^']+)'/.exec(README_ROUTE)?.[1] ?? 'the README block seeds no secret'

describe('the README edge example in a real Next.js app (next build, next start)', () => {
  let app = ''
  let server: ChildProcess | undefined
  let built: Promise<{ code: number | null; output: string }> | undefined
  let served: Promise<string> | undefined

  beforeAll(async () => {
    if ('reason' in found) {
      if (required) throw new Error(`PATKIT_REQUIRE_E2E=1 (or CI=true) but ${found.reason}`)
      console.warn(`skipped: ${found.reason}`)
      return
    }
    if (!existsSync(join(root, 'dist', 'index.js'))) {
      throw new Error('dist/ is missing: build it first (npm run build; npm test does)')
    }
    app = mkdtempSync(join(tmpdir(), 'patkit-next-edge-'))
    await writeApp(app, found.packages)
  })

  afterAll(() => {
    if (server !== undefined) stop(server)
    if (app !== '') rmSync(app, { recursive: true, force: true })
  })

  /** The build, run once by whichever test comes first. */
  function nextBuild(bin: string) {
    built ??= build(bin, app)
    return built
  }

  /** The server over a successful build, started once. */
  function origin(bin: string): Promise<string> {
    served ??= nextBuild(bin).then(({ code, output }) => {
      if (code !== 0) throw new Error(`next build failed (${code}), so nothing to start:\n${output}`)
      const started = start(bin, app)
      server = started.child
      return started.origin
    })
    return served
  }

  it(
    'next build compiles and collects both edge routes',
    async (ctx) => {
      if ('reason' in found) return ctx.skip(found.reason)
      const { code, output } = await nextBuild(found.bin)
      // What it failed with before: the sandbox refused the node:crypto lookup while collecting the route.
      expect(output).not.toMatch(/A Node\.js API is used/)
      expect(code, output).toBe(0)
      expect(output).toMatch(/ƒ \/api\/v4\/\[\.\.\.path\]/)
      expect(output).toMatch(/ƒ \/me/)
    },
    BUILD_TIMEOUT_MS,
  )

  it(
    'the README route (patkit, patkit/memory, patkit/http): 401 without a token, the token with it',
    async (ctx) => {
      if ('reason' in found) return ctx.skip(found.reason)
      const url = `${await origin(found.bin)}/api/v4/personal_access_tokens/self`
      const none = await fetch(url)
      expect([none.status, await none.json()]).toEqual([401, { message: '401 Unauthorized' }])
      const self = await fetch(url, { headers: { 'PRIVATE-TOKEN': README_SECRET } })
      expect(self.status).toBe(200)
      expect(await self.json()).toMatchObject({ name: 'edge', user_id: 1, scopes: ['api'], active: true })
    },
    BUILD_TIMEOUT_MS + START_TIMEOUT_MS,
  )

  it(
    "docs/embedding.md's withToken route (patkit/next): 401 with a challenge, 200 with the caller",
    async (ctx) => {
      if ('reason' in found) return ctx.skip(found.reason)
      const base = await origin(found.bin)
      const none = await fetch(`${base}/me`)
      expect(none.status).toBe(401)
      expect(none.headers.get('www-authenticate')).toBe('Bearer realm="Protected by OAuth 2.0"')
      expect(await none.json()).toEqual({ message: '401 Unauthorized' })
      const me = await fetch(`${base}/me`, { headers: { 'PRIVATE-TOKEN': ALICE_SECRET } })
      expect(me.status).toBe(200)
      expect(await me.json()).toEqual({ username: 'alice', token: 'laptop' })
    },
    BUILD_TIMEOUT_MS + START_TIMEOUT_MS,
  )
})
